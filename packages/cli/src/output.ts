/** How results look to people: aligned tables, money in its currency, times in UTC (docs/features/cli.md#output). */

type Row = Record<string, unknown>;

/** The columns of a list of each kind of object; other kinds show every plain field. */
const LIST_COLUMNS: Record<string, string[]> = {
  customer: ["id", "name", "email", "currency", "created_at"],
  product: ["id", "name", "unit_amount", "tax_rate", "stock_quantity", "active"],
  invoice: ["id", "number", "status", "customer", "total", "due_date"],
  line_item: ["id", "description", "product", "quantity", "unit_amount", "tax_rate", "amount", "tax"],
  usage_row: ["bucket_start", "key_id", "endpoint", "status", "requests", "errors_4xx", "errors_5xx", "p50_ms", "p99_ms"],
};
const MONEY_FIELDS = new Set(["amount", "unit_amount", "subtotal", "tax", "total"]);
/** Fields every object carries that say nothing to a person reading one (livemode is said once, by the object holding a list). */
const UNSHOWN = new Set(["object", "metadata"]);
const UNSHOWN_IN_TABLES = new Set([...UNSHOWN, "livemode"]);

/** An amount in a currency, as the analytics give them per currency. */
function isAmount(value: unknown): value is { amount: number; currency: string } {
  return typeof (value as Row | null)?.amount === "number" && typeof (value as Row).currency === "string";
}

function isPlain(value: unknown): boolean {
  return value === null || ["string", "number", "boolean"].includes(typeof value);
}

/** An integer amount in the currency's minor unit, as the currency writes it: 2490 EUR is €24.90. */
export function money(amount: number, currency: string): string {
  try {
    const format = new Intl.NumberFormat("en-US", { style: "currency", currency });
    return format.format(amount / 10 ** (format.resolvedOptions().maximumFractionDigits ?? 2));
  } catch {
    return `${amount} ${currency}`;
  }
}

/** A field's value as text; a money field in the row's currency, or the enclosing object's. */
function cell(row: Row, field: string, currency = row.currency): string {
  const value = row[field];
  if (value === null || value === undefined) return "—";
  if (MONEY_FIELDS.has(field) && typeof value === "number" && typeof currency === "string") return money(value, currency);
  if (Array.isArray(value) && value.every(isAmount)) return value.map((amount) => money(amount.amount, amount.currency)).join(", ") || "—";
  if (typeof value === "string" && /^\d{4}-\d{2}-\d{2}T/.test(value)) return value.replace("T", " ").replace(/\.\d+Z$|Z$/, " UTC");
  return isPlain(value) ? String(value) : JSON.stringify(value);
}

export function table(rows: Row[], columns: string[], currency?: unknown): string {
  const cells = rows.map((row) => columns.map((column) => cell(row, column, row.currency ?? currency)));
  const widths = columns.map((column, index) => Math.max(column.length, ...cells.map((line) => line[index]!.length)));
  const line = (values: string[]) =>
    values
      .map((value, index) => value.padEnd(widths[index]!))
      .join("  ")
      .trimEnd();
  return [line(columns.map((column) => column.toUpperCase())), ...cells.map(line)].join("\n");
}

function columnsOf(rows: Row[]): string[] {
  const kind = rows[0]?.object;
  if (typeof kind === "string" && LIST_COLUMNS[kind]) return LIST_COLUMNS[kind];
  const shown = (value: unknown) => isPlain(value) || (Array.isArray(value) && value.every(isAmount));
  return Object.keys(rows[0] ?? {}).filter((field) => !UNSHOWN_IN_TABLES.has(field) && rows.some((row) => shown(row[field])));
}

export function listText(rows: Row[], hasMore: boolean): string {
  if (rows.length === 0) return "No results.";
  const more = hasMore ? "\nMore follow: add --all for every page, or starting_after=<last id>." : "";
  return `${table(rows, columnsOf(rows))}${more}`;
}

/** One object: its plain fields as "field  value" lines (nested objects dotted), then a table for each list it holds. */
export function objectText(value: Row): string {
  const fields: [string, string][] = [];
  const lists: string[] = [];
  const walk = (object: Row, prefix: string, currency: unknown) => {
    for (const [field, inner] of Object.entries(object)) {
      if (UNSHOWN.has(field)) continue;
      if (Array.isArray(inner) && inner.every((item) => item && typeof item === "object")) {
        if (inner.length) lists.push(`\n${prefix}${field}\n${table(inner as Row[], columnsOf(inner as Row[]), object.currency ?? currency)}`);
      } else if (inner && typeof inner === "object" && !Array.isArray(inner)) walk(inner as Row, `${prefix}${field}.`, currency);
      else fields.push([`${prefix}${field}`, cell(object, field, object.currency ?? currency)]);
    }
  };
  walk(value, "", value.currency);
  const width = Math.max(...fields.map(([field]) => field.length));
  return [...fields.map(([field, text]) => `${field.padEnd(width)}  ${text}`), ...lists].join("\n");
}
