import { createHmac } from "node:crypto";
import { RefusedAddressError } from "./address-guard";
import { guardedPost } from "./guarded-post";

/** An attempt gets 10 s, from the connection to the end of the answer. */
export const DELIVERY_TIMEOUT_MS = 10_000;
/** How much of an answer the delivery log keeps. */
const EXCERPT_CHARS = 500;

export interface DeliveryAttempt {
  /** The answer's status, or null when there was none. */
  status: number | null;
  ok: boolean;
  durationMs: number;
  /** The start of the answer's body, or what went wrong. */
  excerpt: string;
}

export interface OutgoingWebhook {
  url: string;
  /** The endpoint's secrets that sign it: the current one, and the previous one while it lasts. */
  secrets: string[];
  /** The `webhook-id`: the same on every attempt and on a resend. */
  id: string;
  /** The body, as sent: `{ type, timestamp, data }` (a log stream's batch comes encoded once, as bytes). */
  body: string | Buffer;
  at: Date;
}

/**
 * A Standard Webhooks signature: `v1,` and the base64 HMAC-SHA256 of `<id>.<seconds>.<body>` under
 * the secret's bytes (its base64 after `whsec_`). Node's HMAC rather than the standardwebhooks
 * library's pure-JavaScript SHA-256, which took 9.8 ms instead of 2.8 on a log stream's 560 KB
 * batch, on the thread that serves the API (docs/performance.md#log-streams-cost-on-the-request-path).
 * Receivers verify it with the library itself (tests/webhooks.test.ts, tests/helpers/log-receivers.ts).
 */
function signature(secret: string, id: string, at: Date, body: string | Buffer): string {
  const key = Buffer.from(secret.startsWith("whsec_") ? secret.slice("whsec_".length) : secret, "base64");
  return `v1,${createHmac("sha256", key)
    .update(`${id}.${Math.floor(at.getTime() / 1000)}.`)
    .update(body)
    .digest("base64")}`;
}

/** Standard Webhooks' headers: one `v1,` signature per secret, space-separated. */
export function signedHeaders(webhook: OutgoingWebhook): Record<string, string> {
  const signatures = webhook.secrets.map((secret) => signature(secret, webhook.id, webhook.at, webhook.body));
  return {
    "content-type": "application/json",
    "user-agent": "Invoicing-Webhooks/1.0",
    "webhook-id": webhook.id,
    "webhook-timestamp": String(Math.floor(webhook.at.getTime() / 1000)),
    "webhook-signature": signatures.join(" "),
  };
}

function excerptOf(text: string): string {
  return text.length > EXCERPT_CHARS ? `${text.slice(0, EXCERPT_CHARS)}…` : text;
}

function failureText(error: unknown): string {
  if (error instanceof RefusedAddressError) return error.message;
  if (error instanceof Error && error.name === "TimeoutError") return `No answer within ${DELIVERY_TIMEOUT_MS / 1000} s.`;
  const code = (error as NodeJS.ErrnoException)?.code;
  if (code === "ECONNREFUSED") return "The connection was refused.";
  if (code === "ENOTFOUND") return "The host name could not be resolved.";
  return error instanceof Error ? error.message : String(error);
}

/**
 * One attempt: a POST with the signed headers, to the addresses the guard lets through, cut at
 * 10 s. A 2xx is a delivery; anything else (another status, no answer) is a failure to retry.
 * Redirects are not followed, as Stripe and Svix do not.
 */
export async function sendWebhook(webhook: OutgoingWebhook): Promise<DeliveryAttempt> {
  const started = performance.now();
  const target = new URL(webhook.url);
  const signal = AbortSignal.timeout(DELIVERY_TIMEOUT_MS);
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const { status, text } = await guardedPost(target, signedHeaders(webhook), webhook.body, signal, EXCERPT_CHARS * 4);
    return { status, ok: status >= 200 && status < 300, durationMs: elapsed(), excerpt: excerptOf(text) };
  } catch (error) {
    return { status: null, ok: false, durationMs: elapsed(), excerpt: failureText(error) };
  }
}
