import type { Books, Mode } from "@/core/enums";

/**
 * The dashboard's mode is in its URL, `?mode=test` (docs/features/test-mode.md#dashboard), so a
 * view of test traffic can be shared; without it a page shows live data. No zod here: the header's
 * switch and the nav's links read it on every page.
 */
export const MODE_PARAM = "mode";

/** The mode a page's URL asks for: test only when it says so. */
export function viewModeOf(params: URLSearchParams | Record<string, string | string[] | undefined>): Mode {
  const value = params instanceof URLSearchParams ? params.get(MODE_PARAM) : params[MODE_PARAM];
  return (Array.isArray(value) ? value[0] : value) === "test" ? "test" : "live";
}

/** `href` with the mode kept: links within the dashboard stay in test mode once it is on. */
export function withMode(href: string, mode: Mode): string {
  if (mode === "live") return href;
  const [path, query = ""] = href.split("?", 2) as [string, string?];
  const params = new URLSearchParams(query);
  params.set(MODE_PARAM, mode);
  return `${path}?${params}`;
}

/** The books a page reads: the organization's, in the mode its URL chose (live when it chose none). */
export function booksOf(orgId: string, mode: Mode | undefined): Books {
  return { orgId, mode: mode ?? "live" };
}
