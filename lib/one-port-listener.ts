import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import type { TLSSocket } from "node:tls";
import { getRequestListener } from "@hono/node-server";

/** Browsers keep to HTTPS for two years once they have seen this over HTTPS (RFC 6797). */
export const STRICT_TRANSPORT_SECURITY = "max-age=63072000; includeSubDomains";

export function isApiPath(url: string | undefined): boolean {
  return url === "/v1" || url?.startsWith("/v1/") === true || url?.startsWith("/v1?") === true;
}

/** Over TLS here, or (behind a proxy of our own) over TLS to that proxy. */
function servedOverHttps(req: IncomingMessage, trustProxy: boolean): boolean {
  if ((req.socket as TLSSocket).encrypted) return true;
  const forwardedProto = req.headers["x-forwarded-proto"];
  return trustProxy && typeof forwardedProto === "string" && forwardedProto.split(",")[0]!.trim().toLowerCase() === "https";
}

/**
 * One port: /v1 goes straight to the API (a fetch handler), everything else to Next.
 *
 * The API runs through @hono/node-server without replacing the global Request and Response
 * (`overrideGlobalObjects: false`): Next.js shares this process and relies on its own.
 */
export function createOnePortListener(options: {
  handleNext: (req: IncomingMessage, res: ServerResponse) => unknown;
  apiFetch: (request: Request) => Response | Promise<Response>;
  trustProxy: boolean;
}): RequestListener {
  const { handleNext, trustProxy } = options;
  const handleApi = getRequestListener(options.apiFetch, { overrideGlobalObjects: false });
  return (req, res) => {
    // The client address the app sees (sign-in throttling, the audit log): the socket's, unless a
    // proxy of our own sets X-Forwarded-For. A client's own header would let it pick any address.
    if (!trustProxy) {
      req.headers["x-forwarded-for"] = req.socket.remoteAddress ?? "";
      delete req.headers["x-real-ip"];
    }
    if (servedOverHttps(req, trustProxy)) res.setHeader("Strict-Transport-Security", STRICT_TRANSPORT_SECURITY);
    if (isApiPath(req.url)) void handleApi(req, res);
    else void handleNext(req, res);
  };
}
