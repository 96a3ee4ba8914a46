/** What the live tail's server and its page agree on (docs/features/live-tail.md). */

/** Open live tails per person, across every tab and server process. */
export const LIVE_STREAMS_PER_USER = 5;
/** Rows the page keeps on screen; a tail resuming after a long absence sends no more than these. */
export const LIVE_ROWS_KEPT = 500;

/** The `end` event: the stream stops for good and says why; the page does not reconnect. */
export interface LiveTailEnd {
  reason: "too_many" | "signed_out" | "no_access" | "expired";
  message: string;
}

/** The `skipped` event: more came in while the tail was away than the page keeps. */
export interface LiveTailSkipped {
  message: string;
}
