import http from "node:http";
import https from "node:https";
import { Webhook } from "standardwebhooks";
import { guardedLookup, RefusedAddressError, refusedLiteral } from "./address-guard";

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
  /** The body, as sent: `{ type, timestamp, data }`. */
  body: string;
  at: Date;
}

/** Standard Webhooks' headers: one `v1,` signature per secret, space-separated. */
export function signedHeaders(webhook: OutgoingWebhook): Record<string, string> {
  const signatures = webhook.secrets.map((secret) => new Webhook(secret).sign(webhook.id, webhook.at, webhook.body));
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
  const client = target.protocol === "https:" ? https : http;
  const signal = AbortSignal.timeout(DELIVERY_TIMEOUT_MS);
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const literal = refusedLiteral(target.hostname);
    if (literal) throw literal;
    const { status, text } = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const request = client.request(target, { method: "POST", headers: signedHeaders(webhook), lookup: guardedLookup, signal }, (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on("data", (chunk: Buffer) => {
          // Only the start is kept; the rest is read and dropped so the connection can end.
          if (size < EXCERPT_CHARS * 4) chunks.push(chunk);
          size += chunk.length;
        });
        response.on("end", () => resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }));
        response.on("error", reject);
      });
      request.on("error", (error) => reject(signal.aborted ? signal.reason : error));
      request.end(webhook.body);
    });
    return { status, ok: status >= 200 && status < 300, durationMs: elapsed(), excerpt: excerptOf(text) };
  } catch (error) {
    return { status: null, ok: false, durationMs: elapsed(), excerpt: failureText(error) };
  }
}
