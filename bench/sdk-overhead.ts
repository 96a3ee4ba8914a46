/**
 * The SDK's own cost (docs/performance.md#the-sdks-overhead): 1,000 sequential calls of
 * `GET /v1/products?limit=10` through `@invoicing/sdk` against the same calls through `fetch`
 * (the key header, the JSON read). On PostgreSQL against the compiled API server in a process of its
 * own, as a client and a server are; on the embedded database in this process. The two alternate
 * call by call: the server slows as its request log grows, and blocks of one then the other would
 * charge that to whichever went second.
 * `npm run bench -- --only=sdk-overhead`.
 */
import { Invoicing } from "@invoicing/sdk";
import { benchOrganization } from "./gateway-ratio";
import { databaseKind } from "@/db";
import { startServerProcess } from "@/tests/helpers/server-process";
import { ms, percentile, printTable, startBenchApi } from "./lib";

const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;

const CALLS = 1_000;
const WARM_UP = 200;

type Client = () => Promise<unknown>;

/** `calls` calls of each client, one after another, alternating which goes first; each call's milliseconds by client. */
async function timeAlternating(clients: Record<string, Client>, calls: number): Promise<Record<string, number[]>> {
  const samples: Record<string, number[]> = Object.fromEntries(Object.keys(clients).map((name) => [name, []]));
  const names = Object.keys(clients);
  for (let index = 0; index < calls; index++) {
    for (const name of index % 2 === 0 ? names : [...names].reverse()) {
      const started = performance.now();
      await clients[name]!();
      samples[name]!.push(performance.now() - started);
    }
  }
  return samples;
}

async function apiProcess(): Promise<{ base: string; close: () => Promise<void> }> {
  const server = await startServerProcess("api-server.ts", { WEB_CONCURRENCY: "1" });
  return { base: server.base, close: () => server.stop() };
}

export async function benchSdkOverhead(): Promise<void> {
  const api = databaseKind() === "postgres" ? await apiProcess() : await startBenchApi();
  try {
    const { values } = await benchOrganization("SDK overhead", 1);
    const key = values[0]!;
    const sdk = new Invoicing({ apiKey: key, baseUrl: api.base });
    const clients: Record<string, Client> = {
      fetch: async () => {
        const response = await fetch(`${api.base}/v1/products?limit=10`, { headers: { "X-API-Key": key } });
        if (!response.ok) throw new Error(`fetch: ${response.status}`);
        return response.json();
      },
      sdk: async () => await sdk.products.list({ limit: 10 }),
    };
    await timeAlternating(clients, WARM_UP);
    const samples = await timeAlternating(clients, CALLS);
    const total = (name: string) => samples[name]!.reduce((sum, sample) => sum + sample, 0);
    const row = (name: string) => {
      const sorted = [...samples[name]!].sort((a, b) => a - b);
      return [name, ms(total(name)), ms(mean(sorted)), ms(percentile(sorted, 50)), ms(percentile(sorted, 99))];
    };
    const where = databaseKind() === "postgres" ? "the compiled API server" : "the API in this process";
    printTable(`SDK overhead: ${CALLS.toLocaleString("en-US")} sequential calls each of GET /v1/products?limit=10 to ${where}, alternating`, [
      ["client", `${CALLS} calls`, "mean", "p50", "p99"],
      row("fetch"),
      row("sdk"),
      ["sdk ÷ fetch", (total("sdk") / total("fetch")).toFixed(3), "", "", ""],
    ]);
  } finally {
    await api.close();
  }
}
