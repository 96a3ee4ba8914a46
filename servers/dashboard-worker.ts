import { createServer } from "node:http";
import { once } from "node:events";
import { prepareNext } from "@/servers/next-handler";
import { drain } from "@/servers/server-boot";
import { startTracing } from "@/lib/tracing/start";
import type { StopServing } from "@/servers/worker-cluster";

/**
 * A dashboard worker of `npm start` on PostgreSQL (server.ts): Next.js on the Unix socket the front
 * workers hand it what is not /v1 through (servers/front-worker.ts). The front has already done what
 * the one-port listener does for Next.js (servers/one-port-listener.ts: the client's address in
 * X-Forwarded-For, proxy headers only from proxies of ours, Strict-Transport-Security), and the
 * socket is in a directory only this server's user can open. The front workers migrate the
 * database and run the queues' consumers and the maintenance; this one only serves pages.
 */
export async function startDashboardWorker(options: { port: number; socketPath: string }): Promise<StopServing> {
  // Registered before Next.js loads, which then traces its own requests (docs/operations.md#traces).
  await startTracing();
  const next = await prepareNext({ dev: false, port: options.port });
  const server = createServer((req, res) => void next.handleNext(req, res));
  server.listen(options.socketPath);
  await once(server, "listening");
  return () => drain(server, next.close);
}
