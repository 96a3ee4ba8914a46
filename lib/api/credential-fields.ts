/**
 * Credentials by their place rather than their value: the members of a JSON body and the
 * parameters of a query or form whose names say they hold one, and strings that carry one only
 * once JSON's escapes or percent-encoding are read (docs/security.md, "Request details keep no credential").
 */

export const REDACTED = "[redacted]";

/**
 * Names that say their value is a credential, matched as Sentry's and Datadog's default scrubbers
 * match them: case-insensitive, anywhere in the name (`client_secret`, `X-Auth-Token`, `userPassword`).
 */
const CREDENTIAL_NAME = /passw(?:or)?d|pwd|passphrase|secret|token|api[-_]?key|private[-_]?key|auth|session|cookie|credential|signature|csrf|xsrf/i;

/** A JSON string from its opening quote to its closing one, or to the end of a text cut inside it. */
const STRING = /"(?:[^"\\]|\\[\s\S]?)*"?/y;
const NAME_SEPARATOR = /\s*:\s*/y;
const BARE_VALUE = /[^\s,\]}]*/y;

/** Where the match of a sticky `pattern` at `at` ends; `at` when there is none. */
function endOf(pattern: RegExp, text: string, at: number): number {
  pattern.lastIndex = at;
  return pattern.exec(text) ? pattern.lastIndex : at;
}

/** Where the JSON value that starts at `at` ends: the end of the text when it was cut inside it. */
function valueEnd(text: string, at: number): number {
  if (text[at] === '"') return endOf(STRING, text, at);
  if (text[at] !== "{" && text[at] !== "[") return endOf(BARE_VALUE, text, at);
  let depth = 0;
  for (let i = at; i < text.length; i++) {
    const char = text[i];
    if (char === '"') i = endOf(STRING, text, i) - 1;
    else if (char === "{" || char === "[") depth++;
    else if ((char === "}" || char === "]") && --depth === 0) return i + 1;
  }
  return text.length;
}

/**
 * A JSON string token as a parser reads it. One cut short, or not valid JSON (a raw control
 * character, an unknown escape), is read as far as it goes, its `\uXXXX` escapes decoded.
 */
function decodeJsonString(token: string): string {
  const closed = token.length > 1 && token.endsWith('"') ? token : `${token}"`;
  try {
    return JSON.parse(closed) as string;
  } catch {
    return token
      .slice(1)
      .replace(/\\(?:u([0-9A-Fa-f]{4})|([\s\S]))/g, (_, hex: string | undefined, char: string | undefined) =>
        hex ? String.fromCharCode(Number.parseInt(hex, 16)) : (char ?? ""),
      );
  }
}

/**
 * A JSON text, whole or cut anywhere, with each string rewritten when `redact` changes what it
 * reads as once its escapes are decoded (`"ik_\u006c…"` is a key), and the value of each member
 * whose name says it is a credential replaced by "[redacted]", whatever its type. Everything else
 * keeps its bytes, indentation included.
 */
export function redactJson(text: string, redact: (text: string) => string): string {
  let out = "";
  let at = 0;
  for (let quote = text.indexOf('"'); quote !== -1; quote = text.indexOf('"', at)) {
    const end = endOf(STRING, text, quote);
    const token = text.slice(quote, end);
    const decoded = decodeJsonString(token);
    const redacted = redact(decoded);
    out += text.slice(at, quote) + (redacted === decoded ? token : JSON.stringify(redacted));
    at = end;
    const value = endOf(NAME_SEPARATOR, text, end);
    if (value > end && CREDENTIAL_NAME.test(decoded)) {
      const valueStop = valueEnd(text, value);
      out += text.slice(end, value) + (valueStop > value ? JSON.stringify(REDACTED) : "");
      at = valueStop;
    }
  }
  return out + text.slice(at);
}

/** Percent-decoded without throwing (a malformed sequence reads as U+FFFD): thousands of parts may be malformed. */
function percentDecoded(text: string): string {
  return text.replaceAll("+", " ").replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => Buffer.from(run.replaceAll("%", ""), "hex").toString("utf8"));
}

/** One part of a path or query: through `redact`, and wholly replaced when only its percent-decoded form carries a credential. */
export function redactEncoded(part: string, redact: (text: string) => string): string {
  const raw = redact(part);
  if (raw !== part) return raw;
  const decoded = percentDecoded(part);
  return decoded === part || redact(decoded) === decoded ? part : REDACTED;
}

/**
 * `name=value` pairs joined by `&` (a query string, a form body): the value of each parameter
 * whose name says it is a credential replaced by "[redacted]", every other name and value through
 * `redactEncoded`.
 */
export function redactParams(text: string, redact: (text: string) => string): string {
  return text
    .split("&")
    .map((pair) => {
      const eq = pair.indexOf("=");
      if (eq === -1) return redactEncoded(pair, redact);
      const name = pair.slice(0, eq);
      return CREDENTIAL_NAME.test(percentDecoded(name)) ? `${name}=${REDACTED}` : `${redactEncoded(name, redact)}=${redactEncoded(pair.slice(eq + 1), redact)}`;
    })
    .join("&");
}
