import http from "node:http";
import https from "node:https";
import { guardedLookup, refusedLiteral } from "./address-guard";

/** What a receiver answered: its status, its headers and the start of its body. */
export interface GuardedAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The first `keepBytes` bytes of the body (a little more: whole chunks), as UTF-8. */
  text: string;
}

/**
 * A POST to the addresses the SSRF guard lets through (docs/features/webhooks.md#ssrf-guard): a
 * host written as an address is judged before connecting, a name by the connection's own lookup.
 * Webhooks and log streams (docs/features/log-streams.md#delivery) both send through it.
 * Redirects are not followed. The start of the answer is kept and the rest read and dropped, so
 * the connection can end. Rejects with the guard's RefusedAddressError, the signal's reason once it
 * aborted, or the socket's error. A text body is encoded once here: passed as text, Node measures it
 * for Content-Length and encodes it again on the socket, two passes over a log stream's megabyte
 * (docs/performance.md#log-streams-cost-on-the-request-path).
 */
export async function guardedPost(
  url: URL,
  headers: http.OutgoingHttpHeaders,
  body: string | Buffer,
  signal: AbortSignal,
  keepBytes: number,
): Promise<GuardedAnswer> {
  const literal = refusedLiteral(url.hostname);
  if (literal) throw literal;
  const client = url.protocol === "https:" ? https : http;
  const failed = (reject: (reason: unknown) => void) => (error: Error) => reject(signal.aborted ? signal.reason : error);
  return new Promise<GuardedAnswer>((resolve, reject) => {
    const request = client.request(url, { method: "POST", headers, lookup: guardedLookup, signal }, (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      response.on("data", (chunk: Buffer) => {
        if (size < keepBytes) chunks.push(chunk);
        size += chunk.length;
      });
      response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, text: Buffer.concat(chunks).toString("utf8") }));
      response.on("error", failed(reject));
    });
    request.on("error", failed(reject));
    request.end(typeof body === "string" ? Buffer.from(body) : body);
  });
}
