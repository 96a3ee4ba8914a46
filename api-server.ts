import { serve } from "@hono/node-server";
import { closeDb, getDb } from "@/db";
import { migrateDatabase } from "@/db/migrate";
import { scheduleMaintenance } from "@/db/maintenance";
import { startWebhookWorker } from "@/lib/webhooks/worker";
import { createApiApp } from "@/lib/api/app";
import { trustedProxyHops } from "@/lib/client-address";

// The API alone, for deployments that scale it apart from the dashboard. An embedded database
// has a single owning process, so this needs a shared PostgreSQL.
if (!process.env.DATABASE_URL) {
  console.error("npm run start:api needs DATABASE_URL: the API on its own shares a PostgreSQL server with the dashboard (the embedded database has one owning process). Use npm start for everything on one port.");
  process.exit(1);
}

// A TRUST_PROXY_HOPS that is no number of proxies stops the start instead of failing every request.
trustedProxyHops();
const port = Number(process.env.API_PORT ?? process.env.PORT ?? 3001);
await migrateDatabase();
scheduleMaintenance(getDb);
// The webhook deliveries' one consumer in this process (SPEC §10); pg-boss shares the queue between processes.
await startWebhookWorker();
const server = serve({ fetch: createApiApp().fetch, port, hostname: process.env.HOSTNAME_BIND ?? "0.0.0.0" }, () => {
  console.log(`Invoicing API ready on http://localhost:${port}/v1`);
});

async function shutdown() {
  server.close();
  await closeDb();
  process.exit(0);
}
process.on("SIGINT", () => void shutdown());
process.on("SIGTERM", () => void shutdown());
