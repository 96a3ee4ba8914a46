import { z } from "@hono/zod-openapi";
import { DATE_MAX, DATE_MIN, MAX_RANGE_DAYS, boundedDate, boundedString, dateRangeProblem } from "@/lib/input-rules";
import { CURRENCY_CODES } from "@/lib/money";

export const Currency = z
  .enum(CURRENCY_CODES, { error: "Unknown currency: use an active ISO 4217 code in capitals, such as USD or EUR." })
  .openapi("Currency", { description: "Active ISO 4217 currency code, in capitals.", example: "USD" });

export const Amount = z
  .number({ error: "Expected an integer number of minor units." })
  .int({ error: "Expected an integer number of minor units (cents for USD), at most 9007199254740991." })
  .min(0, { error: "Amounts cannot be negative." })
  .max(Number.MAX_SAFE_INTEGER, { error: "Expected an integer number of minor units (cents for USD), at most 9007199254740991." })
  .openapi({ description: "Integer amount in the currency's minor unit (cents for USD, yen for JPY), 0 to 2^53 − 1.", format: "int64", example: 1999 });

/** A count in a response (invoices, units): never negative, within int32. */
export const Count = z.number().int().min(0).max(2_147_483_647).openapi({ format: "int32" });

export const TaxRate = z
  .number()
  .min(0, { error: "Tax rates cannot be negative." })
  .max(100, { error: "Tax rates are percentages up to 100." })
  .multipleOf(0.0001, { error: "Tax rates have at most four decimals." })
  .openapi({ description: "Percentage with at most four decimals: 19 for 19 %, 8.875 for 8.875 %.", example: 19 });

export const Timestamp = z.iso.datetime().max(24).openapi({ description: "ISO 8601 timestamp, UTC, to the millisecond.", example: "2026-03-01T12:00:00.000Z" });

export const CalendarDate = boundedDate("Expected a date as YYYY-MM-DD.").openapi({
  description: `Calendar date, YYYY-MM-DD, from ${DATE_MIN} to ${DATE_MAX}.`,
  maxLength: 10,
  example: "2026-03-31",
});

/** Trimmed, non-empty text of at most `max` characters (UTF-16 code units), without NUL or unpaired surrogates. */
export function text(max: number, example: string) {
  return boundedString(max, `At most ${max} characters.`).trim().min(1, { error: "Cannot be empty." }).openapi({ example });
}

/** An object id as sent in a path, a body or a query: unknown ids are a 404, not a 400. */
export function objectId(example: string) {
  return boundedString(64, "Ids have at most 64 characters.").openapi({ example });
}

const MetadataKey = boundedString(40, "Metadata keys have at most 40 characters.").min(1, { error: "Metadata keys cannot be empty." });

const METADATA_KEYS_MAX = 50;

/**
 * Before the record parses each key: more than 50 keys are refused without reading them (a 1 MiB
 * body holds tens of thousands), and "__proto__", which JSON.parse keeps as an own key but zod's
 * record drops (assigning it would replace the object's prototype), is refused rather than lost.
 */
function checkMetadataKeys(value: unknown, ctx: z.RefinementCtx): unknown {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return value;
  if (Object.keys(value).length > METADATA_KEYS_MAX) {
    ctx.addIssue({ code: "custom", message: `At most ${METADATA_KEYS_MAX} metadata keys.`, input: value });
    return {};
  }
  if (Object.hasOwn(value, "__proto__")) ctx.addIssue({ code: "custom", path: ["__proto__"], message: "__proto__ cannot be a metadata key.", input: value });
  return value;
}

export const Metadata = z
  .preprocess(checkMetadataKeys, z.record(MetadataKey, boundedString(500, "Metadata values have at most 500 characters.")))
  .openapi("Metadata", {
    maxProperties: METADATA_KEYS_MAX,
    description: "Your own key-value pairs (at most 50 keys of up to 40 characters, string values of up to 500 characters). Replaced as a whole on update.",
    example: { crm_id: "A-1042" },
  });

const IDEMPOTENCY_KEY_RULE = { max: 255, message: "Idempotency-Key is 1 to 255 visible ASCII characters, such as a UUID." };

/** The header of a POST that may be retried safely (docs/features/api.md#idempotency-key); the gateway's idempotency step reads it with this schema. */
export const IdempotencyHeaders = z.object({
  "idempotency-key": z
    .string()
    .max(IDEMPOTENCY_KEY_RULE.max, { error: IDEMPOTENCY_KEY_RULE.message, abort: true })
    .regex(/^[!-~]+$/, IDEMPOTENCY_KEY_RULE.message)
    .optional()
    .openapi({
      description:
        "Makes the request safe to retry: within 24 hours, a request with the same key and the same method, path and body gets the first response again (with `Idempotent-Replayed: true`) and changes nothing; the same key with another request is `409 idempotency_key_reused`; while the first is still running, `409 idempotency_key_in_use`. A failure of ours (5xx) frees the key.",
      example: "5c1a7d2e-9b0f-4e5a-8f51-3a2b7c9d1e04",
    }),
});

export function idParams(example: string) {
  return z.strictObject({ id: objectId(example).openapi({ param: { name: "id", in: "path" } }) });
}

const PAGE_SIZE_MAX = 100;

/** `limit` and `starting_after`, spread into each list's query schema. */
export function pageQuery(example: string) {
  return {
    limit: z.coerce
      .number()
      .int()
      .min(1, { error: "limit is 1 to 100." })
      .max(PAGE_SIZE_MAX, { error: "limit is 1 to 100." })
      .default(10)
      .openapi({ description: "Page size, 1 to 100.", format: "int32", example: 25 }),
    starting_after: objectId(example).optional().openapi({
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
      data: z.array(item).max(PAGE_SIZE_MAX),
      has_more: z.boolean().openapi({ description: "Whether another page follows." }),
      next_cursor: z.string().max(64).nullable().openapi({ description: "Pass as `starting_after` to get the next page; null on the last page." }),
    })
    .openapi(name, { description: "A page of objects, newest first (by creation time, then id)." });
}

/** Stripe's convention (docs/features/test-mode.md): which books an object belongs to. */
export const Livemode = z.boolean().openapi({
  description: "`true` for the organization's live data, `false` for test data, which only test keys (`ik_test_…`) see and change.",
  example: true,
});

export function deletedOf(object: string, example: string) {
  return z
    .object({ id: objectId(example), object: z.literal(object), livemode: Livemode, deleted: z.literal(true) })
    .openapi(`Deleted${object[0]!.toUpperCase()}${object.slice(1)}`);
}

/** `true`/`false` in a query string. */
export const QueryBoolean = z.enum(["true", "false"]).transform((value) => value === "true");

/** `from` and `to` (inclusive) of a date filter, spread into a query schema; see `checkDateRange`. */
export const dateRange = {
  from: CalendarDate.optional().openapi({ description: "First day included (UTC).", example: "2026-01-01" }),
  to: CalendarDate.optional().openapi({ description: `Last day included (UTC); at most ${MAX_RANGE_DAYS} days after \`from\`.`, example: "2026-12-31" }),
};

/** The superRefine of a query with `dateRange`: ordered, and no longer than MAX_RANGE_DAYS. */
export function checkDateRange(range: { from?: string; to?: string }, ctx: z.RefinementCtx): void {
  const problem = dateRangeProblem(range.from, range.to);
  if (problem) ctx.addIssue({ code: "custom", path: ["to"], message: problem });
}
