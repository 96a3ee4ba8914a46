import { createServer } from "node:http";
import { once } from "node:events";
import next from "next";
import { getDb } from "@/db";
import { isEmpty, seedDatabase } from "@/seed";
import { createApiApp } from "@/lib/api/app";
import { keepHostThroughActionRedirects } from "@/lib/action-redirect-host";
import { createOnePortListener } from "@/lib/one-port-listener";
import { trustedProxyHops } from "@/lib/client-address";
import { ensureAuthSecret } from "@/lib/runtime-config";
import { drain, startServices } from "@/lib/server-boot";
import { serveOnWorkers } from "@/lib/worker-cluster";

// One port: /v1 goes straight to the API, everything else to Next (lib/one-port-listener.ts).
const dev = process.argv.includes("--dev");
const port = Number(process.env.PORT ?? 3000);
const hostname = process.env.HOSTNAME_BIND ?? "0.0.0.0";

// Before any worker starts, so they all sign with the one secret (a generated one is kept on disk).
ensureAuthSecret();
await serveOnWorkers({
  oneProcess: dev,
  ready: `Invoicing service ready on http://localhost:${port} (${process.env.DATABASE_URL ? "PostgreSQL" : "embedded PGlite"})`,
  start: async () => {
    await startServices();
    if (!process.env.DATABASE_URL && (await isEmpty(getDb()))) {
      console.log("First start of the embedded database: adding the demo data…");
      await seedDatabase(getDb());
    }
    const app = next({ dev, hostname: "localhost", port });
    const handleNext = keepHostThroughActionRedirects(app.getRequestHandler());
    await app.prepare();
    const server = createServer(createOnePortListener({ handleNext, apiFetch: createApiApp().fetch, proxyHops: trustedProxyHops() }));
    server.listen(port, hostname);
    await once(server, "listening");
    return () => drain(server, () => app.close?.());
  },
});
