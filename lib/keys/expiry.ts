import { addDays, addYears } from "date-fns";
import { utcDay, utcDayStart } from "@/core/time";

/** When a key created now stops working. "date" ends at the end of a chosen UTC day. */
export const KEY_EXPIRY_CHOICES = [
  { value: "never", label: "Never" },
  { value: "7", label: "7 days" },
  { value: "30", label: "30 days" },
  { value: "60", label: "60 days" },
  { value: "90", label: "90 days" },
  { value: "365", label: "1 year" },
  { value: "date", label: "Custom date" },
] as const;
export type KeyExpiryChoice = (typeof KEY_EXPIRY_CHOICES)[number]["value"];
export const KEY_EXPIRY_VALUES = KEY_EXPIRY_CHOICES.map((choice) => choice.value) as [KeyExpiryChoice, ...KeyExpiryChoice[]];

/** The latest custom date, so a "date" cannot mean "never" in disguise. */
export const KEY_EXPIRY_MAX_YEARS = 5;

/** The first and last day a custom expiry may fall on, as YYYY-MM-DD: today (UTC) through five years on. */
export function customExpiryBounds(now: Date): { first: string; last: string } {
  return { first: utcDay(now), last: utcDay(addYears(now, KEY_EXPIRY_MAX_YEARS)) };
}

/**
 * The moment a key created at `now` expires, to the second, or null for never. A custom day
 * (YYYY-MM-DD, already checked against customExpiryBounds) ends at the next day's 00:00 UTC.
 */
export function keyExpiresAt(choice: KeyExpiryChoice, day: string | undefined, now: Date): Date | null {
  if (choice === "never") return null;
  if (choice === "date") return addDays(utcDayStart(day!), 1);
  const at = addDays(now, Number(choice));
  at.setUTCMilliseconds(0);
  return at;
}
