import "server-only";
import http from "node:http";
import https from "node:https";
import type { CustomFetch } from "openid-client";
import { guardedLookup, refusedLiteral } from "@/lib/webhooks/address-guard";

/**
 * The requests openid-client makes for single sign-on (its `customFetch`), sent only to addresses
 * the webhooks' SSRF guard lets through (docs/features/webhooks.md#ssrf-guard): an issuer is an
 * address an owner types, so it must not reach this machine or its private networks. As
 * lib/webhooks/guarded-post.ts does, a host written as an address is judged before connecting and
 * a name by the connection's own lookup; redirects are not followed (openid-client asks for
 * `redirect: "manual"`), and an answer over ANSWER_MAX_BYTES is refused rather than read whole.
 */

const ANSWER_MAX_BYTES = 512 * 1024;

/** Statuses whose Response may not have a body. */
const NO_BODY = new Set([101, 204, 205, 304]);

type Body = Parameters<CustomFetch>[1]["body"];

function bodyOf(body: Body): string | Buffer | undefined {
  if (body === null || body === undefined) return undefined;
  if (typeof body === "string" || body instanceof URLSearchParams) return body.toString();
  if (body instanceof Uint8Array || body instanceof ArrayBuffer) return Buffer.from(body as Uint8Array);
  throw new TypeError("A streamed request body is not supported.");
}

function headersOf(incoming: http.IncomingHttpHeaders): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming)) {
    for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, one);
  }
  return headers;
}

export const guardedFetch: CustomFetch = async (url, { method, headers, body, signal }) => {
  const target = new URL(url);
  const literal = refusedLiteral(target.hostname);
  if (literal) throw literal;
  const client = target.protocol === "https:" ? https : http;
  return new Promise<Response>((resolve, reject) => {
    const failed = (error: Error) => reject(signal?.aborted ? signal.reason : error);
    const request = client.request(target, { method, headers, lookup: guardedLookup, signal }, (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      response.on("data", (chunk: Buffer) => {
        size += chunk.length;
        if (size > ANSWER_MAX_BYTES) response.destroy(new Error(`${target.origin} answered with more than ${ANSWER_MAX_BYTES / 1024} KiB.`));
        else chunks.push(chunk);
      });
      response.on("end", () => {
        const status = response.statusCode ?? 0;
        // A status fetch has no Response for (outside 200–599) is the server's error, not ours.
        if (status < 200 || status > 599) return reject(new Error(`${target.origin} answered with HTTP status ${status}.`));
        resolve(new Response(NO_BODY.has(status) ? null : Buffer.concat(chunks), { status, headers: headersOf(response.headers) }));
      });
      response.on("error", failed);
    });
    request.on("error", failed);
    request.end(bodyOf(body));
  });
};
