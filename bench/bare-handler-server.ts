/**
 * The yardstick of the gateway bench: GET /v1/products answered by the same service call and JSON
 * shape as the real route, for one organization fixed by BENCH_ORG_ID, with no gateway (no key,
 * no limits, no log). Started by bench/gateway-ratio.ts as its own process.
 */
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { closeDb } from "@/db";
import { listProducts } from "@/lib/api/services/products";

const orgId = process.env.BENCH_ORG_ID;
if (!orgId) throw new Error("BENCH_ORG_ID names the organization whose products the bare route lists");

const app = new Hono();
app.get("/v1/products", async (c) => c.json(await listProducts({ orgId, mode: "live" }, { limit: Number(c.req.query("limit") ?? 10) })));

const port = Number(process.env.API_PORT);
const server = serve({ fetch: app.fetch, port, hostname: "127.0.0.1" }, () => console.log(`bare handler ready on ${port}`));
process.on("SIGTERM", () => {
  server.close();
  void closeDb().then(() => process.exit(0));
});
