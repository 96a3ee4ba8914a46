/**
 * What the details of a failed request keep (SPEC §14): the request and response bodies cut at
 * 8 KB, and never a credential. Headers are not stored at all; the credentials they carried are
 * removed from every text that is (the path, the user agent, the bodies, the error message, the
 * Idempotency-Key), as is anything in the format of one of our keys.
 */

/** How much of each body is kept. */
export const CAPTURED_BODY_BYTES = 8 * 1024;
/**
 * How much of a body to read: past the cut, so a credential straddling it is recognised whole
 * and removed before the cut.
 */
export const CAPTURE_READ_BYTES = CAPTURED_BODY_BYTES + 1024;
export const REDACTED = "[redacted]";
/** Shorter header values are not secrets worth the name, and removing them would mangle text. */
const MIN_SECRET_LENGTH = 8;
/** A partial credential where the read of a body ended: its first characters are still part of it. */
const MIN_TAIL_LENGTH = 4;
// Our keys' format (SPEC §3), whoever's key it is; at the end of a text, any start of one.
const API_KEY = /ik_[0-9A-Za-z]{32}/g;
const API_KEY_TAIL = /ik_[0-9A-Za-z]{0,32}$/;

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

/** `text` with every credential in `secrets`, and every string in our key format, replaced. */
export function redactCredentials(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (out.includes(secret)) out = out.replaceAll(secret, REDACTED);
  return out.includes("ik_") ? out.replace(API_KEY, REDACTED) : out;
}

/** `text` without a credential's first characters at its end (where the read fell inside one). */
function redactTail(text: string, secrets: readonly string[]): string {
  const key = API_KEY_TAIL.exec(text);
  if (key) return text.slice(0, key.index) + REDACTED;
  for (const secret of secrets) {
    for (let length = Math.min(secret.length - 1, text.length); length >= MIN_TAIL_LENGTH; length--) {
      if (text.endsWith(secret.slice(0, length))) return text.slice(0, text.length - length) + REDACTED;
    }
  }
  return text;
}

/** PostgreSQL's text cannot hold NUL. */
function storable(text: string): string {
  return text.includes("\u0000") ? text.replaceAll("\u0000", "\uFFFD") : text;
}

export interface CapturedBody {
  /** The body as UTF-8 text, credentials removed, cut at CAPTURED_BODY_BYTES. */
  text: string;
  /** The whole body's size in bytes; null when it is longer than what was read and its size was not declared. */
  bytes: number | null;
}

/**
 * What is kept of a body of which `prefix` holds the first bytes (at least CAPTURE_READ_BYTES
 * when there are that many) and `size` the whole size when known.
 */
export function captureBody(prefix: Uint8Array, size: number | null, secrets: readonly string[]): CapturedBody {
  const window = prefix.subarray(0, CAPTURE_READ_BYTES);
  let text = redactCredentials(decoder.decode(window), secrets);
  // The window may end inside a credential, and removing those before it may have moved that end below the cut.
  if (window.byteLength < prefix.byteLength || size === null || size > window.byteLength) text = redactTail(text, secrets);
  const encoded = encoder.encode(text);
  if (encoded.byteLength > CAPTURED_BODY_BYTES) {
    // Back to the start of the character the cut falls in.
    let end = CAPTURED_BODY_BYTES;
    while (end > 0 && (encoded[end]! & 0xc0) === 0x80) end--;
    text = decoder.decode(encoded.subarray(0, end));
  }
  return { text: storable(text), bytes: size };
}

/** The same for a body at hand as text: one this short (3 bytes of UTF-8 at most per UTF-16 unit) needs no cut. */
export function captureText(text: string, secrets: readonly string[]): CapturedBody {
  if (text.length * 3 <= CAPTURED_BODY_BYTES) return { text: storable(redactCredentials(text, secrets)), bytes: Buffer.byteLength(text) };
  const bytes = encoder.encode(text);
  return captureBody(bytes, bytes.byteLength, secrets);
}

/** Free text stored about a request (path, user agent, error message), with no credential in it. */
export function storableText(text: string, secrets: readonly string[]): string {
  return storable(redactCredentials(text, secrets));
}
