import { serveOnWorkers } from "@/servers/worker-cluster";
import { log } from "@/core/log";
import { ensureAuthSecret } from "@/servers/runtime-config";

// The API alone, for deployments that scale it apart from the dashboard. An embedded database
// has a single owning process, so this needs a shared PostgreSQL.
if (!process.env.DATABASE_URL) {
  log.error(
    "npm run start:api needs DATABASE_URL: the API on its own shares a PostgreSQL server with the dashboard (the embedded database has one owning process). Use npm start for everything on one port.",
  );
  process.exit(1);
}

// Its webhook worker opens the sealed signing secrets and Slack URLs, and its mail worker signs
// unsubscribe links: with the dashboard's AUTH_SECRET, checked before any worker starts (server.ts).
ensureAuthSecret();
const port = Number(process.env.API_PORT ?? process.env.PORT ?? 3001);
await serveOnWorkers({
  ready: `Invoicing API ready on http://localhost:${port}/v1`,
  // Loaded where it runs: a cluster's primary only forks (server.ts says why).
  start: async () => (await import("@/servers/api-worker")).startApiWorker({ port, hostname: process.env.HOSTNAME_BIND ?? "0.0.0.0" }),
});
