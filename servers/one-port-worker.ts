import { createServer } from "node:http";
import { once } from "node:events";
import { getDb } from "@/db";
import { isEmpty, seedDatabase } from "@/seed";
import { createApiApp } from "@/lib/api/app";
import { createOnePortListener } from "@/servers/one-port-listener";
import { trustedProxyHops } from "@/lib/client-address";
import { prepareNext } from "@/servers/next-handler";
import { drain, startServices } from "@/servers/server-boot";
import type { StopServing } from "@/servers/worker-cluster";
import { log } from "@/core/log";

/**
 * `npm start` (server.ts) in one process, on the embedded database or in development: the
 * services, the demo data on a first start of the embedded database, then Next.js and the API on
 * one port (servers/one-port-listener.ts).
 */
export async function startOnePortWorker(options: { dev: boolean; port: number; hostname: string }): Promise<StopServing> {
  const { dev, port, hostname } = options;
  await startServices();
  if (!process.env.DATABASE_URL && (await isEmpty(getDb()))) {
    log.info("First start of the embedded database: adding the demo data…");
    await seedDatabase(getDb());
  }
  const next = await prepareNext({ dev, port });
  const server = createServer(
    createOnePortListener({ handleNext: next.handleNext, apiFetch: createApiApp().fetch, proxyHops: trustedProxyHops(), nextInProcess: true }),
  );
  server.listen(port, hostname);
  await once(server, "listening");
  return () => drain(server, next.close);
}
