import cluster from "node:cluster";
import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { serviceMetrics } from "@/lib/metrics/service-metrics";
import { askPrimary } from "./cluster-metrics";
import { log } from "@/core/log";

/**
 * GET /metrics (docs/operations.md#metrics): Prometheus text for the whole server, whichever
 * worker the scrape reaches (servers/cluster-metrics.ts); a server of one process answers from its
 * own. Behind METRICS_TOKEN as a bearer token; unset, the path is not served.
 */

/** Whether the request carries the token, compared in constant time (digests of equal length). */
function authorized(req: IncomingMessage, token: string): boolean {
  const [scheme, given] = (req.headers.authorization ?? "").split(" ");
  if (scheme?.toLowerCase() !== "bearer" || !given) return false;
  const digest = (text: string) => createHash("sha256").update(text).digest();
  return timingSafeEqual(digest(given), digest(token));
}

/** Answers GET /metrics when METRICS_TOKEN is set (true), or leaves the request to the server (false). */
export function answerMetrics(req: IncomingMessage, res: ServerResponse): boolean {
  const metrics = serviceMetrics();
  if (!metrics || (req.url ?? "").split("?")[0] !== "/metrics") return false;
  if (!authorized(req, process.env.METRICS_TOKEN!)) {
    res
      .writeHead(401, { "Content-Type": "text/plain", "WWW-Authenticate": 'Bearer realm="metrics"', "Cache-Control": "no-store" })
      .end("Send METRICS_TOKEN as a bearer token.\n");
    return true;
  }
  (cluster.isWorker ? askPrimary() : metrics.registry.metrics()).then(
    (text) => res.writeHead(200, { "Content-Type": metrics.registry.contentType, "Cache-Control": "no-store" }).end(text),
    (error: unknown) => {
      log.error({ err: error }, "Serving /metrics failed");
      res.writeHead(500, { "Content-Type": "text/plain" }).end("The metrics could not be gathered; the server's log has the error.\n");
    },
  );
  return true;
}
