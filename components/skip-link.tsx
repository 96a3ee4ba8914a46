/** The id of the page's main content, the skip link's target. */
export const MAIN_CONTENT_ID = "main-content";

/**
 * WCAG 2.4.1: the first stop of the keyboard, hidden above the window until focused, that jumps
 * past the header and the settings nav to the main content.
 */
export function SkipLink() {
  return (
    <a
      href={`#${MAIN_CONTENT_ID}`}
      className="fixed top-2 left-2 z-50 -translate-y-[200%] rounded-md bg-background px-3 py-2 text-sm font-medium shadow-md ring-2 ring-ring outline-none focus:translate-y-0"
    >
      Skip to content
    </a>
  );
}
