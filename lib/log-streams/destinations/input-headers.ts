import { z } from "zod";

/**
 * The headers an OTLP stream sends with every request (a collector's Authorization, a vendor's
 * key header), docs/features/log-streams.md#otlp. The form sends them as text, one `Name: value`
 * a line; the action and the tests may send the object itself.
 */

export const HEADERS_MAX = 20;
const HEADER_NAME_MAX = 100;
const HEADER_VALUE_MAX = 4096;
/** The form's text is read only up to what the most headers could take. */
const TEXT_MAX = HEADERS_MAX * (HEADER_NAME_MAX + HEADER_VALUE_MAX + 4);

/** A field name is an RFC 9110 token. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** Printable ASCII: Node refuses other bytes in a header, and a line break would start another. */
const PRINTABLE = /^[\x20-\x7e]*$/;
/** What the stream itself sets, or what belongs to the connection, not to the sender. */
const RESERVED = new Set([
  "content-type",
  "content-length",
  "content-encoding",
  "transfer-encoding",
  "host",
  "connection",
  "keep-alive",
  "te",
  "trailer",
  "upgrade",
  "expect",
  "user-agent",
]);

/** The lines of `Name: value` as entries; a line without a colon is all name, which the name's rule refuses. */
function parsedLines(text: string): [string, string][] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line): [string, string] => {
      const colon = line.indexOf(":");
      return colon === -1 ? [line, ""] : [line.slice(0, colon).trim(), line.slice(colon + 1).trim()];
    });
}

/** The entries `value` names, or why it names none. */
function headerEntries(value: unknown): [string, string][] | string {
  if (value === undefined || value === null) return [];
  if (typeof value === "string")
    return value.length > TEXT_MAX
      ? `Send at most ${HEADERS_MAX} headers, each value at most ${HEADER_VALUE_MAX.toLocaleString("en-US")} characters.`
      : parsedLines(value);
  if (typeof value !== "object" || Array.isArray(value)) return "Send the headers as Name: value lines.";
  const entries = Object.entries(value);
  return entries.every((entry): entry is [string, string] => typeof entry[1] === "string") ? entries : "Give each header a text value.";
}

function headerProblem(name: string, value: string): string | null {
  if (!TOKEN.test(name) || name.length > HEADER_NAME_MAX) return `“${name.slice(0, 40)}” is not a header name: write one header a line, as Name: value.`;
  if (RESERVED.has(name.toLowerCase())) return `The stream sets ${name} itself: remove it.`;
  if (!value) return `Give ${name} a value.`;
  if (value.length > HEADER_VALUE_MAX) return `${name}'s value is longer than ${HEADER_VALUE_MAX.toLocaleString("en-US")} characters.`;
  if (!PRINTABLE.test(value)) return `${name}'s value has characters a header cannot carry: use printable ASCII.`;
  return null;
}

function entriesProblem(entries: [string, string][]): string | null {
  if (entries.length > HEADERS_MAX) return `Send at most ${HEADERS_MAX} headers.`;
  const seen = new Set<string>();
  for (const [name, value] of entries) {
    const problem = headerProblem(name, value) ?? (seen.has(name.toLowerCase()) ? `${name} is there twice: keep one.` : null);
    if (problem) return problem;
    seen.add(name.toLowerCase());
  }
  return null;
}

/** The headers, from the form's text or an object, each name and value checked; none (a missing field too) is fine. */
export const headersSchema = z
  .unknown()
  .transform((value, ctx): Record<string, string> => {
    const entries = headerEntries(value);
    const problem = typeof entries === "string" ? entries : entriesProblem(entries);
    if (problem !== null || typeof entries === "string") {
      ctx.addIssue({ code: "custom", message: problem ?? "" });
      return z.NEVER;
    }
    return Object.fromEntries(entries);
  })
  .prefault("");
