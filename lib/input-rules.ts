import { z } from "zod";
import { utcDayStart } from "@/core/time";

/**
 * Every input is bounded and checked before any work. The rules every schema of the
 * product builds on (dashboard forms and actions, the audit log's URL, the /v1 API), so a bound
 * is written once and each caller gets the same answer.
 */

/**
 * Why text cannot be stored as it is, or null. PostgreSQL refuses NUL in text; an unpaired UTF-16
 * surrogate is not Unicode (jsonb refuses it, a text column would silently turn it into U+FFFD).
 */
function unsafeTextReason(value: string): string | null {
  if (value.includes("\u0000")) return "Remove the NUL character (\\u0000).";
  if (!value.isWellFormed()) return "Send valid Unicode: this text has an unpaired surrogate.";
  return null;
}

/**
 * Text kept as it came where refusing it is no answer (what a client sent, for its log; where a
 * leaked key was found): each NUL and unpaired surrogate, which the database cannot hold, becomes
 * U+FFFD.
 */
export function asStorable(value: string): string {
  const withoutNul = value.includes("\u0000") ? value.replaceAll("\u0000", "\uFFFD") : value;
  return withoutNul.toWellFormed();
}

/**
 * A string of at most `maxLength` UTF-16 code units (so at most 3 × maxLength UTF-8 bytes),
 * without NUL or unpaired surrogates. The length check runs first and stops the parse, so no
 * later check ever reads an oversized input.
 */
export function boundedString(maxLength: number, tooLong = `Use at most ${maxLength.toLocaleString("en-US")} characters.`) {
  return z
    .string()
    .max(maxLength, { error: tooLong, abort: true })
    .superRefine((value, ctx) => {
      const reason = unsafeTextReason(value);
      if (reason) ctx.addIssue({ code: "custom", message: reason });
    });
}

export function utf8Bytes(value: string): number {
  return new TextEncoder().encode(value).length;
}

/** Calendar dates the product accepts anywhere: a bounded range keeps every date loop short. */
export const DATE_MIN = "2000-01-01";
export const DATE_MAX = "2099-12-31";
/** The longest date range a filter or report may span (inclusive days), about ten years. */
export const MAX_RANGE_DAYS = 3660;

const DAY_MS = 86_400_000;

/** Whether a YYYY-MM-DD, or the day an ISO 8601 date-time is written on, is from DATE_MIN to DATE_MAX. */
export function withinDateBounds(value: string): boolean {
  const day = value.slice(0, 10);
  return day >= DATE_MIN && day <= DATE_MAX;
}

/** A YYYY-MM-DD between DATE_MIN and DATE_MAX. */
export function boundedDate(invalid = "Use a date such as 2026-01-31.") {
  return z.iso.date({ error: invalid, abort: true }).refine(withinDateBounds, { error: `Use a date from ${DATE_MIN} to ${DATE_MAX}.` });
}

/** The problem with a from–to range (both days included), or null. */
export function dateRangeProblem(from: string | undefined, to: string | undefined): string | null {
  if (!from || !to) return null;
  if (from > to) return "The to date is before the from date.";
  const days = (utcDayStart(to).getTime() - utcDayStart(from).getTime()) / DAY_MS + 1;
  if (days > MAX_RANGE_DAYS) return `A date range spans at most ${MAX_RANGE_DAYS.toLocaleString("en-US")} days (about ten years).`;
  return null;
}

// ── Shared by the dashboard's forms (each feature's own inputs are in lib/<feature>/input.ts) ──

const graphemes = new Intl.Segmenter("en", { granularity: "grapheme" });

/** Characters as a person counts them: an emoji or a CJK ideograph is one. */
export function characterCount(value: string): number {
  let count = 0;
  for (const _ of graphemes.segment(value)) count++;
  return count;
}

export const CONTROL_CHARACTER = /\p{Cc}/u;
export const NO_CONTROL_CHARACTERS = "Remove control characters such as tabs or line breaks.";

/** A person's, an organization's or a key's name: trimmed, one line, bounded. */
export function nameSchema(max: number, empty: string) {
  return boundedString(max, `Use at most ${max} characters.`)
    .trim()
    .min(1, empty)
    .refine((name) => !CONTROL_CHARACTER.test(name), NO_CONTROL_CHARACTERS);
}

export const idSchema = boundedString(64).min(1);
export const orgIdSchema = idSchema;

/** An empty form field is no value (the optional reason and note of a revocation, a blank permission). */
export const blankAsUndefined = (value: unknown) => (value === "" ? undefined : value);

/** An email address as accounts store it: trimmed, lower case. */
export const emailSchema = boundedString(254).trim().toLowerCase().pipe(z.email("Enter a valid email address."));

/**
 * Several of a fixed set of values as a form sends them (components/checkbox-set-field.tsx):
 * comma-separated, each known, at least one; given back in the set's order, each once.
 */
export function commaSeparatedChoices<T extends string>(values: readonly T[], messages: { unknown: (value: string) => string; none: string }) {
  return z.preprocess(
    (value) => value ?? "",
    boundedString(Math.max(100, values.join(",").length * 2)).transform((text, ctx) => {
      const given = new Set(
        text
          .split(",")
          .map((value) => value.trim())
          .filter(Boolean),
      );
      const unknown = [...given].find((value) => !(values as readonly string[]).includes(value));
      if (unknown !== undefined) ctx.addIssue({ code: "custom", message: messages.unknown(unknown.slice(0, 40)) });
      else if (given.size === 0) ctx.addIssue({ code: "custom", message: messages.none });
      return values.filter((value) => given.has(value));
    }),
  );
}

/** A switch as a form or a confirmation sends it: "on"/"true" or "off"/"false" (absent is off). */
export const onOffSchema = (error: string) =>
  z.preprocess((value) => value ?? "off", z.enum(["on", "off", "true", "false"], { error })).transform((value) => value === "on" || value === "true");
