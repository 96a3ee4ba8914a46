import type { Server } from "node:http";
import { serve } from "@hono/node-server";
import { createApiApp } from "@/lib/api/app";
import { drain, startServices } from "@/servers/server-boot";
import type { StopServing } from "@/servers/worker-cluster";

/** One worker of `npm run start:api` (api-server.ts): the services, then the API alone. */
export async function startApiWorker(options: { port: number; hostname: string }): Promise<StopServing> {
  await startServices();
  const server = await new Promise<Server>((resolve) => {
    const listening = serve({ fetch: createApiApp().fetch, port: options.port, hostname: options.hostname }, () => resolve(listening as Server));
  });
  return () => drain(server);
}
