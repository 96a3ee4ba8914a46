import { describe, expect, it } from "vitest";
import {
  CAPTURE_READ_BYTES,
  CAPTURED_BODY_BYTES,
  captureBody,
  captureText,
  credentialsOf,
  REDACTED,
  redactCredentials,
  storablePath,
} from "@/lib/api/request-capture";

const KEY = "ik_0123456789ABCDEFGHIJabcdefghijkl";
const bytes = (text: string) => new TextEncoder().encode(text);
/** The key with every other character written as JSON's \uXXXX, as a parser reads back to the key. */
const ESCAPED_KEY = `ik_${[...KEY.slice(3)].map((char, i) => (i % 2 ? char : `\\u00${char.charCodeAt(0).toString(16)}`)).join("")}`;

describe("credentialsOf", () => {
  it("takes the API key, each word of Authorization, and each cookie's value; not short values", () => {
    const headers: Record<string, string> = { "x-api-key": KEY, authorization: "Bearer tok-1234567890", cookie: "a=cookie-value-1; b=x; c=cookie-value-2" };
    const found = credentialsOf((name) => headers[name]);
    expect(found).toEqual(expect.arrayContaining([KEY, "Bearer tok-1234567890", "tok-1234567890", "cookie-value-1", "cookie-value-2"]));
    expect(found).not.toContain("x");
    expect(found).not.toContain("Bearer");
  });
});

describe("redactCredentials", () => {
  it("removes the request's credentials and any string in our key format", () => {
    const other = "ik_zyxwvutsrqponmlkjihgfedcba987654";
    expect(redactCredentials(`a tok-1234567890 b ${other} c`, ["tok-1234567890"])).toBe(`a ${REDACTED} b ${REDACTED} c`);
  });
});

describe("captureBody", () => {
  it("keeps a short body whole, NUL made storable", () => {
    expect(captureBody(bytes('{"a":"b\u0000"}'), 11, [])).toEqual({ text: '{"a":"b\uFFFD"}', bytes: 11 });
  });

  it("keeps a body of at most 8 KB whole, even where a credential's replacement is the longer, and nothing past 8 KB of a longer one", () => {
    const growing = `{${'"auth":1,'.repeat(Math.floor((CAPTURED_BODY_BYTES - 8) / 9))}"x":0}`;
    expect(growing.length).toBeLessThanOrEqual(CAPTURED_BODY_BYTES);
    expect(captureBody(bytes(growing), growing.length, [])).toEqual({ text: growing.replaceAll('"auth":1', `"auth":"${REDACTED}"`), bytes: growing.length });
    // Keys shrink to "[redacted]": the first 8 KB of the body, not 8 KB of what is left of it.
    const shrinking = `${`${KEY} `.repeat(Math.ceil(CAPTURED_BODY_BYTES / 36))}END`;
    const { text } = captureBody(bytes(shrinking), shrinking.length, []);
    expect(text).not.toContain("END");
    expect(text).toBe(`${REDACTED} `.repeat(Math.floor(CAPTURED_BODY_BYTES / 36)) + REDACTED);
  });

  it("leaves no start of a credential where the cut falls inside it", () => {
    for (const secret of [KEY, "tok-1234567890-abcdef"]) {
      for (const offset of [2, 5, 10, 15, 40]) {
        const body = `${"a".repeat(CAPTURED_BODY_BYTES - offset)}${secret} and more`;
        const { text } = captureBody(bytes(body), body.length, [secret]);
        expect(Buffer.byteLength(text)).toBeLessThanOrEqual(CAPTURED_BODY_BYTES + REDACTED.length);
        expect(text).not.toContain(secret.slice(0, 4));
      }
    }
  });

  it("leaves no start of a credential longer than what is read past the cut", () => {
    const secret = `tok-${"s".repeat(3000)}`;
    const body = `${"a".repeat(CAPTURED_BODY_BYTES - 100)}${secret}`;
    const { text } = captureBody(bytes(body), body.length, [secret]);
    expect(text).toBe(`${"a".repeat(CAPTURED_BODY_BYTES - 100)}${REDACTED}`);
  });

  it("leaves no start of a credential where the read ends, when removing others moved it below the cut", () => {
    const secret = "tok-1234567890-abcdef";
    const keys = `${KEY} `.repeat(200);
    const body = `${keys}${"b".repeat(CAPTURE_READ_BYTES - keys.length - 6)}${secret}`;
    const { text } = captureBody(bytes(body), body.length, [secret]);
    expect(text).not.toContain("tok-");
    expect(text).not.toContain(KEY.slice(0, 4));
  });
});

describe("keys written with escapes, and credentials by their names", () => {
  it("removes a key written with JSON escapes anywhere in a text, and keeps an escaped string that is none", () => {
    expect(JSON.parse(`"${ESCAPED_KEY}"`)).toBe(KEY);
    expect(redactCredentials(`a "${ESCAPED_KEY}" b`, [])).toBe(`a "${REDACTED}" b`);
    expect(captureText(`{"k": "x${ESCAPED_KEY}y", "t": "caf\\u00e9"}`, []).text).toBe(`{"k": "x${REDACTED}y", "t": "caf\\u00e9"}`);
  });

  it("leaves no start of an escaped key where the read ends inside it, or the cut", () => {
    for (const into of [5, 6, 9, 20, 40]) {
      const read = `{"k": "${ESCAPED_KEY.slice(0, into)}`;
      expect(captureBody(bytes(read), null, []).text, read).toBe(`{"k": "${REDACTED}`);
      const body = `${"a".repeat(CAPTURED_BODY_BYTES - into)}${ESCAPED_KEY} and more`;
      expect(captureBody(bytes(body), body.length, []).text).toBe(`${"a".repeat(CAPTURED_BODY_BYTES - into)}${REDACTED}`);
    }
  });

  it("replaces credential-named parameters of a query or form body, and percent-encoded keys", () => {
    expect(storablePath(`/v1/invoices/${encodeURIComponent(KEY).replace("_", "%5F")}?limit=2&Session_Id=abc&x=${KEY}`, [])).toBe(
      `/v1/invoices/${REDACTED}?limit=2&Session_Id=${REDACTED}&x=${REDACTED}`,
    );
    expect(captureText("name=Ann&passwd=p4ss&note=kept", []).text).toBe(`name=Ann&passwd=${REDACTED}&note=kept`);
  });
});

describe("test keys (docs/features/test-mode.md#keys)", () => {
  const TEST_KEY = "ik_test_0123456789ABCDEFGHIJabcdefghijkl";
  const ESCAPED_TEST_KEY = `ik_test_${[...TEST_KEY.slice(8)].map((char, i) => (i % 2 ? char : `\\u00${char.charCodeAt(0).toString(16)}`)).join("")}`;

  it("removes a test key whole, written plainly, with escapes, or percent-encoded: no prefix or tail is left", () => {
    expect(redactCredentials(`a ${TEST_KEY} b`, [])).toBe(`a ${REDACTED} b`);
    expect(JSON.parse(`"${ESCAPED_TEST_KEY}"`)).toBe(TEST_KEY);
    expect(captureText(`{"k": "${ESCAPED_TEST_KEY}", "j": "x${TEST_KEY}"}`, []).text).toBe(`{"k": "${REDACTED}", "j": "x${REDACTED}"}`);
    expect(storablePath(`/v1/customers/${encodeURIComponent(TEST_KEY).replaceAll("_", "%5F")}?x=${TEST_KEY}`, [])).toBe(
      `/v1/customers/${REDACTED}?x=${REDACTED}`,
    );
  });

  it("removes a test key sent in X-API-Key from a body that repeats it, and one the body carries of another key", () => {
    const headers: Record<string, string> = { "x-api-key": TEST_KEY };
    const other = "ik_test_zyxwvutsrqponmlkjihgfedcba987654";
    const body = JSON.stringify({ note: `mine ${TEST_KEY}`, theirs: other });
    expect(
      captureText(
        body,
        credentialsOf((name) => headers[name]),
      ).text,
    ).toBe(JSON.stringify({ note: `mine ${REDACTED}`, theirs: REDACTED }));
  });

  it("leaves no start of a test key where the read ends inside it, the prefix included, or where the cut does", () => {
    for (const into of [3, 5, 7, 8, 9, 20, 39]) {
      const read = `{"k": "${TEST_KEY.slice(0, into)}`;
      expect(captureBody(bytes(read), null, []).text, read).toBe(`{"k": "${REDACTED}`);
      const body = `${"a".repeat(CAPTURED_BODY_BYTES - into)}${TEST_KEY} and more`;
      expect(captureBody(bytes(body), body.length, []).text, body.slice(-60)).toBe(`${"a".repeat(CAPTURED_BODY_BYTES - into)}${REDACTED}`);
    }
    for (const into of [9, 12, 30]) {
      const read = `{"k": "${ESCAPED_TEST_KEY.slice(0, into)}`;
      expect(captureBody(bytes(read), null, []).text, read).toBe(`{"k": "${REDACTED}`);
    }
  });
});
