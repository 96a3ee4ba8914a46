import { formatDistanceStrict } from "date-fns";
import { describe, expect, it } from "vitest";
import { formatRelative } from "@/components/relative-time";

// date-fns counts days in the local time zone, across its daylight-saving changes; RelativeTime in UTC.
process.env.TZ = "UTC";

const NOW = Date.parse("2026-11-27T12:00:00Z");
const MINUTE = 60_000;

// Offsets across every unit's edges (59.5 minutes rounds up to "60 minutes", 11.5 months to "1 year").
const OFFSETS = [
  1,
  1.49,
  1.5,
  2,
  45,
  59.4,
  59.5,
  60,
  89,
  90,
  23 * 60 + 29,
  23 * 60 + 31,
  24 * 60,
  36 * 60,
  29 * 1440,
  29.6 * 1440,
  30 * 1440,
  45 * 1440,
  345 * 1440,
  346 * 1440,
  364 * 1440,
  365 * 1440,
  547 * 1440,
  548 * 1440,
  3000 * 1440,
];

describe("RelativeTime's words", () => {
  it("says what date-fns' formatDistanceStrict says, in the past and the future", () => {
    for (const minutes of OFFSETS) {
      for (const sign of [-1, 1]) {
        const date = new Date(NOW + sign * minutes * MINUTE);
        expect(formatRelative(date, NOW), `${sign * minutes} minutes`).toBe(formatDistanceStrict(date, NOW, { addSuffix: true }));
      }
    }
  });

  it("says just now within a minute either way", () => {
    expect(formatRelative(new Date(NOW - 59_000), NOW)).toBe("just now");
    expect(formatRelative(new Date(NOW + 59_000), NOW)).toBe("just now");
  });
});
