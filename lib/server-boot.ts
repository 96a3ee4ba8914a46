import { closeDb, getDb } from "@/db";
import { scheduleMaintenance } from "@/db/maintenance";
import { migrateDatabase } from "@/db/migrate";
import { trustedProxyHops } from "@/lib/client-address";
import { startWebhookWorker } from "@/lib/webhooks/worker";
import { startMailWorker } from "@/lib/notifications/mail-worker";

/**
 * What both servers (server.ts, api-server.ts) do before they listen: check the proxy setting,
 * migrate, schedule the request log's maintenance and start this process's webhook and email workers.
 */
export async function startServices(): Promise<void> {
  // A TRUST_PROXY_HOPS that is no number of proxies stops the start instead of failing every request.
  trustedProxyHops();
  await migrateDatabase();
  scheduleMaintenance(getDb);
  // The webhook deliveries' and the emails' consumers in this process (SPEC §10, §15); pg-boss shares the queues between processes.
  await startWebhookWorker();
  await startMailWorker();
}

/** On SIGINT or SIGTERM: `stopServing` (stop listening, close the framework), then the database, then exit. */
export function shutDownOnSignals(stopServing: () => Promise<void> | void): void {
  const shutdown = async (signal: string) => {
    console.log(`${signal}: shutting down…`);
    await stopServing();
    await closeDb();
    process.exit(0);
  };
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
}
