import { z } from "@hono/zod-openapi";
import { CURRENCY_CODES } from "@/lib/money";

export const Currency = z
  .enum(CURRENCY_CODES, { error: "Unknown currency: use an active ISO 4217 code in capitals, such as USD or EUR." })
  .openapi("Currency", { description: "Active ISO 4217 currency code, in capitals.", example: "USD" });

export const Amount = z
  .number({ error: "Expected an integer number of minor units." })
  .int({ error: "Expected an integer number of minor units (cents for USD), at most 9007199254740991." })
  .min(0, { error: "Amounts cannot be negative." })
  .openapi({ description: "Integer amount in the currency's minor unit (cents for USD, yen for JPY), 0 to 2^53 − 1.", example: 1999 });

export const TaxRate = z
  .number()
  .min(0, { error: "Tax rates cannot be negative." })
  .max(100, { error: "Tax rates are percentages up to 100." })
  .multipleOf(0.0001, { error: "Tax rates have at most four decimals." })
  .openapi({ description: "Percentage with at most four decimals: 19 for 19 %, 8.875 for 8.875 %.", example: 19 });

export const Timestamp = z.iso.datetime().openapi({ description: "ISO 8601 timestamp, UTC.", example: "2026-03-01T12:00:00.000Z" });

export const CalendarDate = z.iso.date({ error: "Expected a date as YYYY-MM-DD." }).openapi({ description: "Calendar date, YYYY-MM-DD.", example: "2026-03-31" });

/** Trimmed, non-empty text of at most `max` characters. */
export function text(max: number, example: string) {
  return z.string().trim().min(1, { error: "Cannot be empty." }).max(max, { error: `At most ${max} characters.` }).openapi({ example });
}

export const Metadata = z
  .record(z.string().min(1).max(40, { error: "Metadata keys have at most 40 characters." }), z.string().max(500, { error: "Metadata values have at most 500 characters." }))
  .refine((value) => Object.keys(value).length <= 50, { error: "At most 50 metadata keys." })
  .openapi("Metadata", {
    description: "Your own key-value pairs (at most 50 keys of up to 40 characters, string values of up to 500 characters). Replaced as a whole on update.",
    example: { crm_id: "A-1042" },
  });

export function idParams(example: string) {
  return z.strictObject({ id: z.string().max(64).openapi({ param: { name: "id", in: "path" }, example }) });
}

/** `limit` and `starting_after`, spread into each list's query schema. */
export function pageQuery(example: string) {
  return {
    limit: z.coerce
      .number()
      .int()
      .min(1, { error: "limit is 1 to 100." })
      .max(100, { error: "limit is 1 to 100." })
      .default(10)
      .openapi({ description: "Page size, 1 to 100.", example: 25 }),
    starting_after: z.string().max(64).optional().openapi({
      description: "Cursor: the id of the last object of the previous page (its `next_cursor`). The page holds the objects created before it.",
      example,
    }),
  };
}

/** The list envelope of every collection. */
export function listOf<T extends z.ZodType>(item: T, name: string) {
  return z
    .object({
      object: z.literal("list"),
      data: z.array(item),
      has_more: z.boolean().openapi({ description: "Whether another page follows." }),
      next_cursor: z.string().nullable().openapi({ description: "Pass as `starting_after` to get the next page; null on the last page." }),
    })
    .openapi(name, { description: "A page of objects, newest first (by creation time, then id)." });
}

export function deletedOf(object: string, example: string) {
  return z
    .object({ id: z.string().openapi({ example }), object: z.literal(object), deleted: z.literal(true) })
    .openapi(`Deleted${object[0]!.toUpperCase()}${object.slice(1)}`);
}

/** `true`/`false` in a query string. */
export const QueryBoolean = z.enum(["true", "false"]).transform((value) => value === "true");

/** `from` and `to` (inclusive) of a date filter, spread into a query schema; see `ordered`. */
export const dateRange = {
  from: CalendarDate.optional().openapi({ description: "First day included (UTC).", example: "2026-01-01" }),
  to: CalendarDate.optional().openapi({ description: "Last day included (UTC).", example: "2026-12-31" }),
};

export function ordered(range: { from?: string; to?: string }): boolean {
  return !range.from || !range.to || range.from <= range.to;
}

export const ORDERED_ERROR = { error: "from must not be after to.", path: ["to"] };
