import { ensureAuthSecret } from "@/servers/runtime-config";
import { serveOnWorkers } from "@/servers/worker-cluster";

// One port: /v1 goes straight to the API, everything else to Next (servers/one-port-listener.ts). On
// PostgreSQL the API's workers hand the rest to dashboard workers behind them, and Next.js never
// shares a process with the API (servers/front-worker.ts says why).
const dev = process.argv.includes("--dev");
const port = Number(process.env.PORT ?? 3000);
const hostname = process.env.HOSTNAME_BIND ?? "0.0.0.0";

// Before any worker starts, so they all sign with the one secret (a generated one is kept on disk).
ensureAuthSecret();
await serveOnWorkers({
  oneProcess: dev,
  ready: `Invoicing service ready on http://localhost:${port} (${process.env.DATABASE_URL ? "PostgreSQL" : "embedded PGlite"})`,
  // Loaded where it runs: a cluster's primary only forks and counts, and never loads Next.js, the
  // API or the database drivers (200 MB of memory it held for nothing).
  start: async () => (await import("@/servers/one-port-worker")).startOnePortWorker({ dev, port, hostname }),
  split: process.env.DATABASE_URL
    ? {
        backName: "dashboard",
        front: async (dashboardSocket) => (await import("@/servers/front-worker")).startFrontWorker({ port, hostname, dashboardSocket }),
        back: async (socketPath) => (await import("@/servers/dashboard-worker")).startDashboardWorker({ port, socketPath }),
      }
    : undefined,
});
