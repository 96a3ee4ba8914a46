import type { Context } from "hono";
import type { RequestDetailEntry } from "@/db/queries/request-log-writer";
import type { ApiEnv } from "./env";
import { readPrefix } from "./read-prefix";
import { CAPTURE_READ_BYTES, captureBody, captureText, storableText, type CapturedBody } from "./request-capture";

/** Bodies are kept for requests answered 4xx or 5xx; `CAPTURE_ERROR_BODIES=false` keeps none. */
export function bodyCaptureEnabled(): boolean {
  return process.env.CAPTURE_ERROR_BODIES !== "false";
}

/**
 * The request body as far as the API read it (Hono keeps what a handler or the idempotency step
 * read), else its first bytes read now: a request refused before its handler left it unread, and
 * the rest stays so.
 */
async function requestBody(c: Context<ApiEnv>, secrets: readonly string[]): Promise<CapturedBody | null> {
  // Hono keeps the promises of what was read, whatever its type says.
  const cache = c.req.bodyCache as { arrayBuffer?: Promise<ArrayBuffer>; text?: Promise<string> };
  if (cache.arrayBuffer) {
    const buffer = await cache.arrayBuffer.catch(() => null);
    return buffer ? captureBody(new Uint8Array(buffer), buffer.byteLength, secrets) : null;
  }
  if (cache.text) {
    const text = await cache.text.catch(() => null);
    return text === null ? null : captureText(text, secrets);
  }
  // Refused for its size, a body is not read now: its client may never send the length it
  // declared, and the answer would wait for it.
  if (c.get("errorCode") === "payload_too_large") return null;
  const raw = c.req.raw;
  if (!raw.body || raw.bodyUsed) return null;
  const declared = Number(raw.headers.get("content-length") ?? Number.NaN);
  const { bytes, complete } = await readPrefix(raw.body, CAPTURE_READ_BYTES).catch(() => ({ bytes: null, complete: false }));
  if (!bytes || bytes.byteLength === 0) return null;
  return captureBody(bytes, complete ? bytes.byteLength : Number.isFinite(declared) ? declared : null, secrets);
}

/** The answer: a refusal's body as it was rendered, else read back from a copy of the response. */
async function responseBody(c: Context<ApiEnv>, secrets: readonly string[]): Promise<CapturedBody | null> {
  const rendered = c.get("errorBody");
  if (rendered) return captureText(JSON.stringify(rendered), secrets);
  const body = c.res.clone().body;
  if (!body) return null;
  const { bytes, complete } = await readPrefix(body, CAPTURE_READ_BYTES);
  if (!complete) await body.cancel();
  return captureBody(bytes, complete ? bytes.byteLength : null, secrets);
}

/**
 * What the request's details keep beyond its audit row, or null when there is nothing: the error
 * message and, with capture on, both bodies of a 4xx or 5xx; the Idempotency-Key and whether the
 * answer was a replay.
 */
export async function requestDetailOf(c: Context<ApiEnv>, secrets: readonly string[], captureBodies: boolean): Promise<RequestDetailEntry | null> {
  const failed = c.res.status >= 400;
  const idempotencyKey = c.req.header("idempotency-key");
  if (!failed && idempotencyKey === undefined) return null;
  const message = c.get("errorMessage");
  const [request, response] = failed && captureBodies ? await Promise.all([requestBody(c, secrets), responseBody(c, secrets)]) : [null, null];
  return {
    idempotencyKey: idempotencyKey === undefined ? null : storableText(idempotencyKey.slice(0, 255), secrets),
    replayed: c.res.headers.get("idempotent-replayed") === "true",
    errorMessage: message === undefined ? null : storableText(message, secrets),
    requestBody: request?.text ?? null,
    requestBodyBytes: request?.bytes ?? null,
    responseBody: response?.text ?? null,
    responseBodyBytes: response?.bytes ?? null,
  };
}
