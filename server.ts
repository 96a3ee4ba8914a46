import { createServer } from "node:http";
import next from "next";
import { getDb } from "@/db";
import { isEmpty, seedDatabase } from "@/seed";
import { createApiApp } from "@/lib/api/app";
import { keepHostThroughActionRedirects } from "@/lib/action-redirect-host";
import { createOnePortListener } from "@/lib/one-port-listener";
import { trustedProxyHops } from "@/lib/client-address";
import { ensureAuthSecret } from "@/lib/runtime-config";
import { shutDownOnSignals, startServices } from "@/lib/server-boot";

// One port: /v1 goes straight to the API, everything else to Next (lib/one-port-listener.ts).
const dev = process.argv.includes("--dev");
const port = Number(process.env.PORT ?? 3000);
const hostname = process.env.HOSTNAME_BIND ?? "0.0.0.0";

ensureAuthSecret();
await startServices();
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

shutDownOnSignals(async () => {
  server.close();
  await app.close?.();
});
