import type http from "node:http";
import { RefusedAddressError } from "@/lib/webhooks/address-guard";
import { DELIVERY_TIMEOUT_MS } from "@/lib/webhooks/deliver";
import { guardedPost, type GuardedAnswer } from "@/lib/webhooks/guarded-post";
import { DeliveryError } from "./destination";

/**
 * How every destination reaches its service (docs/features/log-streams.md#delivery): through the
 * webhooks' SSRF guard, cut at 10 s a request or earlier when the batch's signal aborts, every
 * failure a DeliveryError whose message is one sentence for the stream's page and whose cause is
 * what went wrong underneath.
 */

export type { GuardedAnswer };

/** How much of an answer is read: enough for an OTLP partial success or an error's JSON. */
const ANSWER_BYTES = 16_384;
/** How much of an answer's reason goes into a message. */
const REASON_CHARS = 200;

/** `[::1]` → `::1`: a URL writes an IPv6 host in brackets, the guard names the bare address. */
function unbracketed(host: string): string {
  return host.replace(/^\[|\]$/g, "");
}

/**
 * A refused address. A host written as an address never changes, so retrying cannot help; a name
 * may resolve elsewhere later (a DNS change), so it is retried like any unreachable host.
 */
function refusedAddress(error: RefusedAddressError): DeliveryError {
  const literal = unbracketed(error.host) === error.address;
  const where = literal ? `${error.host} is` : `${error.host} resolves to ${error.address},`;
  return new DeliveryError(
    `${where} a private, loopback or reserved address: log streams are sent to public addresses only.`,
    { status: null, retryable: !literal },
    { cause: error },
  );
}

/** "the endpoint" → "The endpoint": a service is named within a sentence, and sometimes begins one. */
function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * What went wrong before any answer came, as one sentence (`service` as a sentence names it:
 * "Datadog", "the collector"); all of it may pass, so all is retryable but a refused address.
 */
function transportError(service: string, host: string, error: unknown, stopped: AbortSignal, deadline: AbortSignal): DeliveryError {
  if (error instanceof DeliveryError) return error;
  if (error instanceof RefusedAddressError) return refusedAddress(error);
  const retry = { status: null, retryable: true };
  if (stopped.aborted) return new DeliveryError(`The delivery to ${service} was stopped before it answered.`, retry, { cause: error });
  if (deadline.aborted) return new DeliveryError(`${capitalized(service)} did not answer within ${DELIVERY_TIMEOUT_MS / 1000} s.`, retry, { cause: error });
  const code = (error as NodeJS.ErrnoException | null)?.code;
  if (code === "ECONNREFUSED") return new DeliveryError(`${host} refused the connection.`, retry, { cause: error });
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return new DeliveryError(`${host} could not be resolved.`, retry, { cause: error });
  if (code === "ECONNRESET") return new DeliveryError(`${host} closed the connection before answering.`, retry, { cause: error });
  const detail = error instanceof Error ? error.message : String(error);
  return new DeliveryError(`${capitalized(service)} could not be reached: ${detail.replace(/\.$/, "")}.`, retry, { cause: error });
}

/**
 * Runs `send` with a signal that aborts at 10 s or when the batch's does, turning whatever it
 * throws into a DeliveryError (a DeliveryError it throws itself passes as it is).
 */
export async function withDeadline<T>(service: string, host: string, stopped: AbortSignal, send: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const deadline = AbortSignal.timeout(DELIVERY_TIMEOUT_MS);
  try {
    return await send(AbortSignal.any([stopped, deadline]));
  } catch (error) {
    throw transportError(service, host, error, stopped, deadline);
  }
}

/** A POST of `body` to `url` through the guard, within the deadline; any answer resolves, whatever its status. */
export function postTo(service: string, url: URL, headers: http.OutgoingHttpHeaders, body: string | Buffer, stopped: AbortSignal): Promise<GuardedAnswer> {
  return withDeadline(service, url.host, stopped, (signal) => guardedPost(url, headers, body, signal, ANSWER_BYTES));
}

export function succeeded(answer: GuardedAnswer): boolean {
  return answer.status >= 200 && answer.status < 300;
}

/** The answer's body as JSON, or null. */
export function answerJson(answer: GuardedAnswer): unknown {
  try {
    return JSON.parse(answer.text);
  } catch {
    return null;
  }
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > REASON_CHARS ? `${line.slice(0, REASON_CHARS)}…` : line;
}

/**
 * The reason an answer gives, in the shapes services answer with: Splunk's `text`, an OTLP Status's
 * or most APIs' `message`, Datadog's `errors` list; else a plain-text body's first words. An HTML
 * page (a proxy's) says nothing readable.
 */
export function answerReason(answer: GuardedAnswer): string | null {
  const json = answerJson(answer) as Record<string, unknown> | null;
  if (json && typeof json === "object") {
    const first = Array.isArray(json.errors) ? json.errors[0] : undefined;
    const named = [json.text, json.message, json.error, typeof first === "object" && first ? (first as Record<string, unknown>).detail : first].find(
      (value) => typeof value === "string" && value.trim(),
    );
    return typeof named === "string" ? oneLine(named) : null;
  }
  const type = String(answer.headers["content-type"] ?? "");
  return answer.text.trim() && !type.includes("html") ? oneLine(answer.text) : null;
}

/** Retry-After in milliseconds, as seconds or an HTTP date (RFC 9110 §10.2.3), when present and sensible. */
export function retryAfterMs(headers: http.IncomingHttpHeaders, now = Date.now()): number | undefined {
  const value = headers["retry-after"];
  if (typeof value !== "string" || !value.trim()) return undefined;
  const ms = /^\d+$/.test(value.trim()) ? Number(value) * 1000 : Date.parse(value) - now;
  return Number.isFinite(ms) && ms >= 0 ? ms : undefined;
}

/** The common rule: a timeout, a rate limit and a server's error pass; any other refusal stays until something changes. */
export function retryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/** "Datadog refused the API key" → "Datadog refused the API key (403: Forbidden).", with what the answer asked of retries. */
export function refusal(sentence: string, answer: GuardedAnswer, retryable: boolean, reason = answerReason(answer)): DeliveryError {
  const wait = retryable ? retryAfterMs(answer.headers) : undefined;
  const details = { status: answer.status, retryable, ...(wait === undefined ? {} : { retryAfterMs: wait }) };
  // The cause keeps the answer as it came, for the server's log; the message keeps one sentence of it.
  const cause = new Error(`HTTP ${answer.status}: ${answer.text.slice(0, 500)}`);
  return new DeliveryError(`${sentence} (${answer.status}${reason ? `: ${reason.replace(/\.$/, "")}` : ""}).`, details, { cause });
}
