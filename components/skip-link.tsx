/** The id of the page's main content, the skip link's target. */
export const MAIN_CONTENT_ID = "main-content";

/**
 * WCAG 2.4.1: the first stop of the keyboard, which jumps past the header and the settings nav to
 * the main content. Until focused it waits above the window, transparent as well, since full-page
 * screenshots draw what is above the window.
 */
export function SkipLink() {
  return (
    <a
      href={`#${MAIN_CONTENT_ID}`}
      className="fixed top-2 left-2 z-50 -translate-y-[200%] rounded-md bg-background px-3 py-2 text-sm font-medium opacity-0 shadow-md ring-2 ring-ring outline-none focus:translate-y-0 focus:opacity-100"
    >
      Skip to content
    </a>
  );
}
