import cluster from "node:cluster";
import type { Server } from "node:http";
import { checkServerPoolSize, closeDb, getDb } from "@/db";
import { migrateDatabase } from "@/db/migrate";
import { trustedProxyHops } from "@/lib/client-address";
import { watchKeyExpiries } from "@/lib/keys/expiry-watch";
import { startWebhookWorker } from "@/lib/webhooks/worker";
import { startMailWorker } from "@/lib/notifications/mail-worker";
import { scheduleMaintenance } from "./maintenance";
import { offerWorkerMetrics } from "./cluster-metrics";
import { serviceMetrics } from "@/lib/metrics/service-metrics";
import { startTracing, stopTracing } from "@/lib/tracing/start";

/**
 * What both servers (server.ts, api-server.ts) do before they listen: check the proxy setting,
 * migrate, record the key expiries (and their alerts and reminders) that came while no process
 * ran, start this process's webhook and email workers and schedule the maintenance.
 */
export async function startServices(): Promise<void> {
  // First: every request and delivery of the process is traced from its start (docs/operations.md#traces).
  await startTracing();
  // A TRUST_PROXY_HOPS that is no number of proxies stops the start instead of failing every request.
  trustedProxyHops();
  // Likewise a DATABASE_POOL_SIZE below 2.
  checkServerPoolSize();
  // Made before any request or batch, so the metrics count from the start; a worker offers them to the primary's scrape.
  const metrics = serviceMetrics();
  if (metrics && cluster.isWorker) await offerWorkerMetrics(metrics.registry);
  await migrateDatabase();
  await watchKeyExpiries(getDb());
  // The webhook deliveries' and the emails' consumers in this process; pg-boss shares the queues between processes.
  await startWebhookWorker();
  await startMailWorker();
  // Once the job queue has started: its first start holds the migration lock's connection, and a
  // maintenance task ticking meanwhile could take the pool's last one while it waits.
  scheduleMaintenance(getDb);
}

/** How long a stopping server lets the requests it has accepted finish before it closes their connections. */
const DRAIN_MS = 10_000;

/**
 * Stops `server` taking connections, lets the requests it has accepted finish (closing idle
 * keep-alive connections at once, the rest after DRAIN_MS at the latest), then closes the
 * framework (`closeApp`), the database and the tracer (sending its last spans). What a worker does on SIGTERM (servers/worker-cluster.ts).
 */
export async function drain(server: Server, closeApp: () => Promise<void> | void = () => {}): Promise<void> {
  const closed = new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
  server.closeIdleConnections();
  const deadline = setTimeout(() => server.closeAllConnections(), DRAIN_MS).unref();
  await closed;
  clearTimeout(deadline);
  await closeApp();
  await closeDb();
  await stopTracing();
}
