import { z } from "@hono/zod-openapi";
import { STATUS_CLASSES } from "@/core/request-log";
import { USAGE_GROUPS } from "@/core/usage-query";
import { DATE_MAX, DATE_MIN, withinDateBounds } from "@/lib/input-rules";
import { Count, Livemode, Timestamp } from "./common";

const PAGE_SIZE_MAX = 1000;

const INSTANT_FORMS = "an ISO 8601 date or date-time, e.g. 2026-11-01 or 2026-11-01T13:00:00Z";

/** A window's end: a UTC day or an instant with its offset, on a day the product accepts anywhere. */
function instant(name: "from" | "to") {
  return z
    .union([z.iso.datetime({ offset: true }).max(40), z.iso.date().max(10)], {
      // zod's own words for a union ("Invalid input") name neither the parameter nor what it takes.
      error: (issue) =>
        issue.input === undefined ? `${name} is required: ${INSTANT_FORMS}.` : `${name} must be ${INSTANT_FORMS} (a date-time with its offset, Z or +01:00).`,
    })
    .refine(withinDateBounds, { error: `${name} must be on a day from ${DATE_MIN} to ${DATE_MAX}.` });
}

/** Said in the OpenAPI document and docs/features/usage-analytics.md: lib/usage/api-window.ts applies it. */
const BUCKET_DEFAULT_RULE =
  "Without it, `hour` when `from` or `to` is an instant inside a UTC day (not 00:00:00Z), so that a window such as the last hour is not widened to its whole day; `day` otherwise (days, and `to` omitted).";

const Status = z
  .string()
  .regex(new RegExp(`^([1-5]\\d\\d|${STATUS_CLASSES.join("|")})$`), { error: "Expected a status code such as 404, or a class: 2xx, 3xx, 4xx or 5xx." })
  .max(3);

export const UsageQuery = z.strictObject({
  from: instant("from").openapi({
    description: `Start of the window, included: a UTC day (\`2026-11-01\`) or an instant (\`2026-11-01T13:00:00Z\`), from ${DATE_MIN} to ${DATE_MAX}; rounded down to its bucket's start.`,
    example: "2026-11-01",
  }),
  to: instant("to").optional().openapi({
    description: `End of the window, excluded, in the same forms as \`from\`; rounded up to a bucket's end. Now when omitted.`,
    example: "2026-11-08",
  }),
  bucket: z
    .enum(["hour", "day"])
    .optional()
    .openapi({ description: `A row per UTC hour or day. Hourly rows reach back 35 days, daily rows 13 months. ${BUCKET_DEFAULT_RULE}` }),
  group_by: z
    .string()
    .max(40)
    .regex(new RegExp(`^(${USAGE_GROUPS.join("|")})(,(${USAGE_GROUPS.join("|")}))*$`), {
      error: `Expected a comma-separated list of ${USAGE_GROUPS.join(", ")}.`,
    })
    .optional()
    .openapi({ description: "Split each bucket's row by any of `key`, `endpoint` and `status`, comma-separated.", example: "key,endpoint" }),
  key_id: z.string().max(64).optional().openapi({ description: "Only this key's requests.", example: "key_4fJ9kQ2mX7pL0aZ3bN8c" }),
  endpoint: z.string().max(120).optional().openapi({ description: "Only this endpoint: the method and the route template.", example: "GET /v1/invoices/{id}" }),
  status: Status.optional().openapi({ description: "Only this status code, or class.", example: "5xx" }),
  limit: z.coerce
    .number()
    .int()
    .min(1, { error: `limit is 1 to ${PAGE_SIZE_MAX}.` })
    .max(PAGE_SIZE_MAX, { error: `limit is 1 to ${PAGE_SIZE_MAX}.` })
    .default(100)
    .openapi({ description: `Rows per page, 1 to ${PAGE_SIZE_MAX}.`, format: "int32", example: 100 }),
  starting_after: z.string().max(400).optional().openapi({ description: "Cursor: the `next_cursor` of the previous page." }),
});

const Milliseconds = z
  .number()
  .min(0)
  .nullable()
  .openapi({ description: "Milliseconds, within 2 % of the exact percentile; null when no duration was recorded.", example: 41.6 });

export const UsageRow = z
  .object({
    object: z.literal("usage_row"),
    livemode: Livemode,
    bucket_start: Timestamp,
    key_id: z.string().max(64).nullable().openapi({ description: "The key, when grouped by key.", example: "key_4fJ9kQ2mX7pL0aZ3bN8c" }),
    endpoint: z.string().max(120).nullable().openapi({ description: "The endpoint, when grouped by endpoint.", example: "GET /v1/invoices/{id}" }),
    status: z.number().int().min(100).max(599).nullable().openapi({ description: "The status code, when grouped by status.", format: "int32", example: 200 }),
    requests: Count,
    errors_4xx: Count,
    errors_5xx: Count,
    p50_ms: Milliseconds,
    p95_ms: Milliseconds,
    p99_ms: Milliseconds,
  })
  .openapi("UsageRow", { description: "The requests of one bucket and group: counts, and latency percentiles." });

export const UsageList = z
  .object({
    object: z.literal("list"),
    data: z.array(UsageRow).max(PAGE_SIZE_MAX),
    has_more: z.boolean().openapi({ description: "Whether another page follows." }),
    next_cursor: z.string().max(400).nullable().openapi({ description: "Pass as `starting_after` to get the next page; null on the last page." }),
  })
  .openapi("UsageList", { description: "A page of usage rows, by bucket, then key, endpoint and status." });

export type UsageQueryInput = z.output<typeof UsageQuery>;
export type UsageListDto = z.input<typeof UsageList>;
