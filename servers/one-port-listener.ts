import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import type { TLSSocket } from "node:tls";
import { getRequestListener } from "@hono/node-server";
import { clientAddress } from "@/lib/client-address";
import { answerProbe } from "./health-probes";
import { answerMetrics } from "./metrics-endpoint";
import { serviceMetrics } from "@/lib/metrics/service-metrics";

/** Browsers keep to HTTPS for two years once they have seen this over HTTPS (RFC 6797). */
export const STRICT_TRANSPORT_SECURITY = "max-age=63072000; includeSubDomains";

/**
 * /v1 and what is under it, in any case: the API answers /V1/… with its JSON 404 (its paths are
 * case-sensitive, like Stripe's) instead of the dashboard's sign-in page.
 */
export function isApiPath(url: string | undefined): boolean {
  if (url?.slice(0, 3).toLowerCase() !== "/v1") return false;
  return url.length === 3 || url[3] === "/" || url[3] === "?";
}

/** Headers a proxy of ours sets about the request as the client sent it; from anyone else they are the client's own words. */
const PROXY_HEADERS = ["x-forwarded-host", "x-forwarded-proto", "x-forwarded-port", "forwarded", "x-real-ip"] as const;

/** Over TLS here, or (behind a proxy of our own) over TLS to that proxy. */
function servedOverHttps(req: IncomingMessage, trustProxy: boolean): boolean {
  if ((req.socket as TLSSocket).encrypted) return true;
  const forwardedProto = req.headers["x-forwarded-proto"];
  return trustProxy && typeof forwardedProto === "string" && forwardedProto.split(",")[0]!.trim().toLowerCase() === "https";
}

/**
 * A request target in absolute form (`GET http://host/v1/customers HTTP/1.1`, as sent to a proxy)
 * becomes its path and query, its host the Host header (RFC 9112 §3.2.2). Next.js answered it with
 * a redirect to the same URL, and the /v1 test never saw the path.
 */
function toOriginForm(req: IncomingMessage): void {
  if (!req.url || req.url.startsWith("/") || !URL.canParse(req.url)) return;
  const target = new URL(req.url);
  if (target.protocol !== "http:" && target.protocol !== "https:") return;
  req.url = `${target.pathname}${target.search}`;
  req.headers.host = target.host;
}

/**
 * One port: the health probes are answered first (servers/health-probes.ts), /v1 goes straight to
 * the API (a fetch handler), everything else to Next: in this
 * process (`handleNext` is its request handler) or, on PostgreSQL, in the dashboard workers behind
 * this one (servers/dashboard-proxy.ts).
 *
 * With Next.js in the process, the API runs through @hono/node-server without replacing the global
 * Request and Response (`nextInProcess`): Next.js relies on its own. Without it, the lighter ones
 * @hono/node-server puts in their place answer without building a stream per response.
 */
export function createOnePortListener(options: {
  handleNext: (req: IncomingMessage, res: ServerResponse) => unknown;
  apiFetch: (request: Request) => Response | Promise<Response>;
  /** Proxies of ours in front (lib/client-address.ts, TRUST_PROXY_HOPS); 0 without TRUST_PROXY. */
  proxyHops: number;
  nextInProcess: boolean;
}): RequestListener {
  const { handleNext, proxyHops } = options;
  const trustProxy = proxyHops > 0;
  const handleApi = getRequestListener(options.apiFetch, { overrideGlobalObjects: !options.nextInProcess });
  const metrics = serviceMetrics();
  return (req, res) => {
    toOriginForm(req);
    if (answerProbe(req, res) || answerMetrics(req, res)) return;
    // From here on X-Forwarded-For names the client alone (sign-in throttling and the sessions
    // table read it, lib/auth/client.ts): the socket's address, or the entry our own proxies vouch for.
    req.headers["x-forwarded-for"] = clientAddress(req.socket.remoteAddress, [req.headers["x-forwarded-for"] ?? []].flat().join(","), proxyHops) ?? "";
    // Without a proxy of ours, Next.js fills these in from the Host header and the socket; next-auth
    // would otherwise build its URLs (and pick its cookies' names) from what the client claims.
    if (!trustProxy) for (const header of PROXY_HEADERS) delete req.headers[header];
    if (servedOverHttps(req, trustProxy)) res.setHeader("Strict-Transport-Security", STRICT_TRANSPORT_SECURITY);
    if (isApiPath(req.url)) return void handleApi(req, res);
    // The API counts its own requests by route template (lib/api/app.ts); Next.js's pages are one route here.
    if (metrics) {
      const started = performance.now();
      res.once("finish", () => metrics.request("(dashboard)", req.method ?? "", res.statusCode, (performance.now() - started) / 1000));
    }
    void handleNext(req, res);
  };
}
