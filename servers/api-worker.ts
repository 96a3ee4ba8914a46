import { createServer } from "node:http";
import { once } from "node:events";
import { getRequestListener } from "@hono/node-server";
import { createApiApp } from "@/lib/api/app";
import { answerProbe } from "@/servers/health-probes";
import { answerMetrics } from "@/servers/metrics-endpoint";
import { drain, startServices } from "@/servers/server-boot";
import type { StopServing } from "@/servers/worker-cluster";

/** One worker of `npm run start:api` (api-server.ts): the services, then the health probes, the metrics and the API alone. */
export async function startApiWorker(options: { port: number; hostname: string }): Promise<StopServing> {
  await startServices();
  // The host a request without a Host header is taken to have named, as @hono/node-server's serve() gave it.
  const handleApi = getRequestListener(createApiApp().fetch, { hostname: options.hostname });
  const server = createServer((req, res) => answerProbe(req, res) || answerMetrics(req, res) || void handleApi(req, res));
  server.listen(options.port, options.hostname);
  await once(server, "listening");
  return () => drain(server);
}
