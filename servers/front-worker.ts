import { createServer } from "node:http";
import { once } from "node:events";
import { createApiApp } from "@/lib/api/app";
import { proxyToDashboard } from "@/servers/dashboard-proxy";
import { createOnePortListener } from "@/servers/one-port-listener";
import { trustedProxyHops } from "@/lib/client-address";
import { drain, startServices } from "@/servers/server-boot";
import type { StopServing } from "@/servers/worker-cluster";

/**
 * A front worker of `npm start` on PostgreSQL (server.ts): the services, then the public port,
 * where /v1 is answered here by the API alone and the rest goes to the dashboard workers behind
 * `dashboardSocket` (servers/dashboard-worker.ts). Without Next.js in this process the API runs as
 * fast as `npm run start:api`: Next.js wraps Date, process.nextTick and the crypto functions
 * process-wide, and keeps the global Response whose stream every API answer paid for.
 */
export async function startFrontWorker(options: { port: number; hostname: string; dashboardSocket: string }): Promise<StopServing> {
  await startServices();
  const listener = createOnePortListener({
    handleNext: proxyToDashboard(options.dashboardSocket),
    apiFetch: createApiApp().fetch,
    proxyHops: trustedProxyHops(),
    nextInProcess: false,
  });
  const server = createServer(listener);
  server.listen(options.port, options.hostname);
  await once(server, "listening");
  return () => drain(server);
}
