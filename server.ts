import { createServer } from "node:http";
import next from "next";
import { closeDb, getDb } from "@/db";
import { migrateDatabase } from "@/db/migrate";
import { scheduleMaintenance } from "@/db/maintenance";
import { startWebhookWorker } from "@/lib/webhooks/worker";
import { isEmpty, seedDatabase } from "@/db/seed";
import { createApiApp } from "@/lib/api/app";
import { keepHostThroughActionRedirects } from "@/lib/action-redirect-host";
import { createOnePortListener } from "@/lib/one-port-listener";
import { trustedProxyHops } from "@/lib/client-address";
import { ensureAuthSecret } from "@/lib/runtime-config";

// One port: /v1 goes straight to the API, everything else to Next (lib/one-port-listener.ts).
const dev = process.argv.includes("--dev");
const port = Number(process.env.PORT ?? 3000);
const hostname = process.env.HOSTNAME_BIND ?? "0.0.0.0";

ensureAuthSecret();
await migrateDatabase();
scheduleMaintenance(getDb);
// The webhook deliveries' one consumer in this process (SPEC §10); pg-boss shares the queue between processes.
await startWebhookWorker();
if (!process.env.DATABASE_URL && (await isEmpty(getDb()))) {
  console.log("First start of the embedded database: adding the demo data…");
  await seedDatabase(getDb());
}

const app = next({ dev, hostname: "localhost", port });
const handleNext = keepHostThroughActionRedirects(app.getRequestHandler());
await app.prepare();

const server = createServer(
  createOnePortListener({ handleNext, apiFetch: createApiApp().fetch, proxyHops: trustedProxyHops() }),
);

server.listen(port, hostname, () => {
  console.log(`Invoicing service ready on http://localhost:${port} (${process.env.DATABASE_URL ? "PostgreSQL" : "embedded PGlite"})`);
});

async function shutdown(signal: string) {
  console.log(`${signal}: shutting down…`);
  server.close();
  await app.close?.();
  await closeDb();
  process.exit(0);
}
process.on("SIGINT", () => void shutdown("SIGINT"));
process.on("SIGTERM", () => void shutdown("SIGTERM"));
