import { asStorable } from "@/lib/input-rules";
import { REDACTED, redactEncoded, redactJson, redactParams } from "./credential-fields";

/**
 * What the details of a failed request keep (docs/features/audit-log.md#request-details): the request and response bodies cut at
 * 8 KB, and never a credential. Headers are not stored at all; the credentials they carried are
 * removed from every text that is (the path, the user agent, the bodies, the error message, the
 * Idempotency-Key), as is anything in the format of one of our keys, written plainly or with
 * JSON's escapes, and the value of every body member or query parameter whose name says it is a
 * credential (lib/api/credential-fields.ts).
 */

/** How much of each body is kept. */
export const CAPTURED_BODY_BYTES = 8 * 1024;
/**
 * How much of a body to read: past the cut, so a credential the cut falls inside is recognised
 * whole and removed before the cut.
 */
export const CAPTURE_READ_BYTES = CAPTURED_BODY_BYTES + 1024;
export { REDACTED };
/** Shorter header values are not secrets worth the name, and removing them would mangle text. */
const MIN_SECRET_LENGTH = 8;
/** A partial credential where the read of a body ended: its first characters are still part of it. */
const MIN_TAIL_LENGTH = 4;
// Our keys' format (docs/security.md#keys), live `ik_` or test `ik_test_`, whoever's key it is; at
// the end of a text, any start of one. The live pattern alone would miss a test key whole: it
// stops at the `_` after "test".
const API_KEY = /ik_(?:test_)?[0-9A-Za-z]{32}/g;
const API_KEY_TAIL = /ik_(?:test_)?[0-9A-Za-z]{0,32}$/;
/** A run of the characters of a key, each written plainly or as JSON's `\uXXXX`. */
const KEY_RUN = /(?:[0-9A-Za-z_]|\\u[0-9A-Fa-f]{4})+/g;
/** The same at the end of a text, where the last escape may be cut short. */
const KEY_RUN_TAIL = /(?:[0-9A-Za-z_]|\\u[0-9A-Fa-f]{4})*(?:\\(?:u[0-9A-Fa-f]{0,3})?)?$/;
/** Of a text's end, as much as a key written wholly in escapes (6 characters each) can take. */
const ESCAPED_KEY_CHARS = 36 * 6;
const ESCAPE = /\\u([0-9A-Fa-f]{4})/g;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * The credentials a request presented: X-API-Key, Authorization and Proxy-Authorization (whole
 * and each word, "Bearer abc…" and "abc…"), and the Cookie header with each cookie's value.
 */
export function credentialsOf(header: (name: string) => string | undefined): string[] {
  const found = new Set<string>();
  const add = (value: string | undefined) => {
    const trimmed = value?.trim();
    if (trimmed && trimmed.length >= MIN_SECRET_LENGTH) found.add(trimmed);
  };
  add(header("x-api-key"));
  for (const name of ["authorization", "proxy-authorization"]) {
    const value = header(name);
    add(value);
    for (const word of value?.split(/\s+/) ?? []) add(word);
  }
  const cookie = header("cookie");
  add(cookie);
  for (const pair of cookie?.split(";") ?? []) add(pair.slice(pair.indexOf("=") + 1));
  // The longest first: a credential that contains another is removed whole.
  return [...found].sort((a, b) => b.length - a.length);
}

const unescaped = (run: string) => run.replace(ESCAPE, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));

/** A key whose characters are partly written as JSON escapes reads as a key on any page that decodes them. */
function redactEscapedKeys(text: string): string {
  return text.replace(KEY_RUN, (run) => {
    if (!run.includes("\\")) return run;
    const decoded = unescaped(run);
    const redacted = decoded.replace(API_KEY, REDACTED);
    return redacted === decoded ? run : redacted;
  });
}

/** `text` with every credential in `secrets`, and every string in our key format, replaced. */
export function redactCredentials(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (out.includes(secret)) out = out.replaceAll(secret, REDACTED);
  if (out.includes("\\u")) out = redactEscapedKeys(out);
  return out.includes("ik_") ? out.replace(API_KEY, REDACTED) : out;
}

/** Where the start of a key written with escapes begins at the end of `text`, if it ends in one. */
function escapedKeyTail(text: string): number | null {
  const end = text.slice(-ESCAPED_KEY_CHARS);
  const run = KEY_RUN_TAIL.exec(end)!;
  if (!run[0].includes("\\")) return null;
  // Its characters, an escape cut short left out.
  const chars = run[0].replace(/\\(?:u[0-9A-Fa-f]{0,3})?$/, "").match(/\\u[0-9A-Fa-f]{4}|[0-9A-Za-z_]/g) ?? [];
  const key = API_KEY_TAIL.exec(chars.map(unescaped).join(""));
  return key ? text.length - end.length + run.index + chars.slice(0, key.index).join("").length : null;
}

/** `text` without a credential's first characters at its end (where the read fell inside one). */
function redactTail(text: string, secrets: readonly string[]): string {
  const key = API_KEY_TAIL.exec(text);
  if (key) return text.slice(0, key.index) + REDACTED;
  const escaped = escapedKeyTail(text);
  if (escaped !== null) return text.slice(0, escaped) + REDACTED;
  for (const secret of secrets) {
    for (let length = Math.min(secret.length - 1, text.length); length >= MIN_TAIL_LENGTH; length--) {
      if (text.endsWith(secret.slice(0, length))) return text.slice(0, text.length - length) + REDACTED;
    }
  }
  return text;
}

/**
 * A body's text without a credential: a JSON body's strings read with their escapes decoded and
 * its credential-named members' values replaced; another body read as a form's parameters.
 */
function redactBody(text: string, secrets: readonly string[]): string {
  const redact = (part: string) => redactCredentials(part, secrets);
  return redactCredentials(/^\s*[[{]/.test(text) ? redactJson(text, redact) : redactParams(text, redact), secrets);
}

export interface CapturedBody {
  /** The body as UTF-8 text, credentials removed, cut at CAPTURED_BODY_BYTES. */
  text: string;
  /** The whole body's size in bytes; null when it is longer than what was read and its size was not declared. */
  bytes: number | null;
}

/** Whether a body of this size (null: longer than what was read) is kept cut: only its first CAPTURED_BODY_BYTES, credentials removed. */
export function isCutBody(size: number | null): boolean {
  return size === null || size > CAPTURED_BODY_BYTES;
}

function commonPrefixLength(a: string, b: string): number {
  let length = 0;
  while (length < a.length && a[length] === b[length]) length++;
  return length;
}

/**
 * What is kept of a body of which `prefix` holds the first bytes (at least CAPTURE_READ_BYTES
 * when there are that many) and `size` the whole size when known: all of it, credentials removed,
 * when it is at most CAPTURED_BODY_BYTES (even when a credential's replacement is the longer), else
 * its first CAPTURED_BODY_BYTES so, and nothing of what lies past them.
 */
export function captureBody(prefix: Uint8Array, size: number | null, secrets: readonly string[]): CapturedBody {
  const window = prefix.subarray(0, CAPTURE_READ_BYTES);
  let whole = redactBody(decoder.decode(window), secrets);
  // The window may end inside a credential.
  if (window.byteLength < prefix.byteLength || size === null || size > window.byteLength) whole = redactTail(whole, secrets);
  if (!isCutBody(size)) return { text: asStorable(whole), bytes: size };
  // Back to the start of the character the cut falls in.
  let end = CAPTURED_BODY_BYTES;
  while (end > 0 && (window[end]! & 0xc0) === 0x80) end--;
  const kept = redactTail(redactBody(decoder.decode(window.subarray(0, end)), secrets), secrets);
  // A credential the cut falls inside is recognised whole in the window read past it: where what
  // is kept parts from the window's reading, it ends in one.
  const agreed = whole.startsWith(kept) ? kept : kept.slice(0, commonPrefixLength(kept, whole)) + REDACTED;
  return { text: asStorable(agreed), bytes: size };
}

/** The same for a body at hand as text: one this short (3 bytes of UTF-8 at most per UTF-16 unit) needs no cut. */
export function captureText(text: string, secrets: readonly string[]): CapturedBody {
  if (text.length * 3 <= CAPTURED_BODY_BYTES) return { text: asStorable(redactBody(text, secrets)), bytes: Buffer.byteLength(text) };
  const bytes = encoder.encode(text);
  return captureBody(bytes, bytes.byteLength, secrets);
}

/** Free text stored about a request (path, user agent, error message), with no credential in it. */
export function storableText(text: string, secrets: readonly string[]): string {
  return asStorable(redactCredentials(text, secrets));
}

/**
 * The path and query as stored: each path segment and parameter without a credential, read
 * percent-decoded as well as raw, and the value of every parameter whose name says it is one
 * (`?token=…`, `?api_key=…`) replaced.
 */
export function storablePath(pathAndQuery: string, secrets: readonly string[]): string {
  const redact = (part: string) => redactCredentials(part, secrets);
  const query = pathAndQuery.indexOf("?");
  const path = (query === -1 ? pathAndQuery : pathAndQuery.slice(0, query))
    .split("/")
    .map((segment) => redactEncoded(segment, redact))
    .join("/");
  return asStorable(query === -1 ? path : `${path}?${redactParams(pathAndQuery.slice(query + 1), redact)}`);
}
