/**
 * SPEC §14's two figures, on PostgreSQL, in separate processes:
 * - the gateway with the bodies of failed requests captured, side by side with capture off
 *   (CAPTURE_ERROR_BODIES=false), rounds interleaved, under a load where one request in five
 *   fails validation with a body;
 * - the one-port server's memory with 5 live tails open (one of them a client that never reads)
 *   under 1,000 requests a second, against the same load with none.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import autocannon from "autocannon";
import { getDb } from "@/db";
import { memberships, products, users } from "@/db/schema";
import { newId } from "@/core/ids";
import { hashPassword } from "@/lib/auth/password";
import { createOrg, insertKey } from "@/tests/helpers/factories";
import { startServerProcess, type ServerProcess } from "@/tests/helpers/server-process";
import { median, printTable } from "./lib";
import { signIn } from "./usage-page-at-scale";

const CONNECTIONS = 50;
const ROUND_SECONDS = 6;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const STREAMS = 5;
const STREAM_LOAD_RATE = 1000;
const STREAM_LOAD_SECONDS = 20;
const PASSWORD = "bench-password-live";
// A customer whose email fails validation: the 400 keeps both bodies.
const INVALID_BODY = JSON.stringify({ name: "Bench Customer GmbH", email: "billing-at-example", address: { line1: "Hauptstrasse 1", city: "Berlin", country: "DE" } });

function processCpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

function rssMiB(pid: number): number {
  const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
  return Number(kb) / 1024;
}

function mixedRequests(keys: string[]) {
  return keys.flatMap((key) => [
    ...Array.from({ length: 4 }, () => ({ method: "GET" as const, path: "/v1/products?limit=10", headers: { "x-api-key": key } })),
    { method: "POST" as const, path: "/v1/customers", headers: { "x-api-key": key, "content-type": "application/json" }, body: INVALID_BODY },
  ]);
}

async function round(server: ServerProcess, keys: string[]): Promise<{ rps: number; cpuMicros: number; failed: number }> {
  await autocannon({ url: server.base, connections: CONNECTIONS, duration: 2, requests: mixedRequests(keys) });
  const cpuBefore = processCpuMs(server.child.pid!);
  const result = await autocannon({ url: server.base, connections: CONNECTIONS, duration: ROUND_SECONDS, requests: mixedRequests(keys) });
  const cpuMs = processCpuMs(server.child.pid!) - cpuBefore;
  const stats = (result.statusCodeStats ?? {}) as Record<string, { count: number }>;
  const responses = Object.values(stats).reduce((sum, { count }) => sum + count, 0);
  return { rps: result.requests.average, cpuMicros: (cpuMs * 1000) / responses, failed: stats["400"]?.count ?? 0 };
}

function geometricMean(ratios: number[]): string {
  const logs = ratios.map(Math.log);
  const mean = logs.reduce((sum, l) => sum + l, 0) / logs.length;
  const variance = logs.reduce((sum, l) => sum + (l - mean) ** 2, 0) / Math.max(1, logs.length - 1);
  const spread = 2 * Math.sqrt(variance / logs.length);
  return `${Math.exp(mean).toFixed(3)} (±2 standard errors ${Math.exp(mean - spread).toFixed(3)}–${Math.exp(mean + spread).toFixed(3)})`;
}

async function benchCapture(keys: string[]): Promise<void> {
  const ratios: number[] = [];
  const cpuRatios: number[] = [];
  const rows: string[][] = [];
  for (let i = 0; i < ROUNDS; i++) {
    // Alternate which goes first, so drift on a shared machine hits both alike.
    const order = i % 2 === 0 ? (["on", "off"] as const) : (["off", "on"] as const);
    const results: Partial<Record<"on" | "off", Awaited<ReturnType<typeof round>>>> = {};
    for (const capture of order) {
      const server = await startServerProcess("api-server.ts", capture === "off" ? { CAPTURE_ERROR_BODIES: "false" } : {});
      try {
        results[capture] = await round(server, keys);
      } finally {
        await server.stop();
      }
    }
    const { on, off } = results as Record<"on" | "off", Awaited<ReturnType<typeof round>>>;
    ratios.push(on.rps / off.rps);
    cpuRatios.push(on.cpuMicros / off.cpuMicros);
    rows.push([String(i + 1), order.join(" then "), Math.round(on.rps).toLocaleString("en-US"), Math.round(off.rps).toLocaleString("en-US"), (on.rps / off.rps).toFixed(3), `${Math.round(on.cpuMicros)} / ${Math.round(off.cpuMicros)} µs`, on.failed.toLocaleString("en-US")]);
  }
  printTable(`## Body capture: the gateway with it on ÷ off (api-server.ts, ${CONNECTIONS} connections, ${ROUND_SECONDS} s rounds, 1 in 5 requests a 400 with a body)`, [
    ["round", "order", "on req/s", "off req/s", "on ÷ off", "CPU per request on / off", "400s captured (on)"],
    ...rows,
  ]);
  console.log(`Throughput on ÷ off: median ${median(ratios).toFixed(3)}, geometric mean ${geometricMean(ratios)}`);
  console.log(`CPU per request on ÷ off: median ${median(cpuRatios).toFixed(3)}, geometric mean ${geometricMean(cpuRatios)}`);
}

/** A live tail read by a client that reads everything, or by one that never reads. */
async function openStream(url: string, cookie: string, reads: boolean, received: { events: number }): Promise<AbortController> {
  const connection = new AbortController();
  const response = await fetch(url, { headers: { cookie }, signal: connection.signal });
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
  if (reads) {
    void (async () => {
      const reader = response.body!.getReader();
      const decoder = new TextDecoder();
      try {
        for (let read = await reader.read(); !read.done; read = await reader.read()) received.events += decoder.decode(read.value).split("event: request").length - 1;
      } catch {
        // aborted at the end
      }
    })();
  }
  return connection;
}

async function benchStreamMemory(org: { id: string; slug: string }, key: string): Promise<void> {
  if (!existsSync(path.resolve(import.meta.dirname, "../.next/BUILD_ID"))) {
    console.log("\n## Live tails' memory: skipped, no production build (run `npx next build` first).");
    return;
  }
  const userId = newId("usr");
  const email = `${userId.toLowerCase()}@bench.test`;
  await getDb().insert(users).values({ id: userId, name: "Bench Watcher", email, passwordHash: await hashPassword(PASSWORD) });
  await getDb().insert(memberships).values({ orgId: org.id, userId, role: "member" });
  const server = await startServerProcess("server.ts", { DATABASE_URL: process.env.DATABASE_URL!, AUTH_SECRET: "bench-secret-not-for-production-0123456789", NEXT_TELEMETRY_DISABLED: "1" });
  try {
    const cookie = await signIn(server.base, email, PASSWORD);
    const pid = server.child.pid!;
    const load = async () => {
      const samples: number[] = [];
      const sampler = setInterval(() => samples.push(rssMiB(pid)), 1000);
      const result = await autocannon({ url: server.base, connections: 20, duration: STREAM_LOAD_SECONDS, overallRate: STREAM_LOAD_RATE, requests: [{ method: "GET", path: "/v1/products?limit=10", headers: { "x-api-key": key } }] });
      clearInterval(sampler);
      return { rps: result.requests.average, p99: result.latency.p99, peak: Math.max(...samples), last: samples.at(-1)! };
    };
    // Warm: the route, the API and their first allocations.
    await fetch(`${server.base}/${org.slug}/settings/api/audit`, { headers: { cookie } });
    await autocannon({ url: server.base, connections: 20, duration: 3, overallRate: STREAM_LOAD_RATE, requests: [{ method: "GET", path: "/v1/products?limit=10", headers: { "x-api-key": key } }] });
    const idle = rssMiB(pid);
    const without = await load();
    const received = { events: 0 };
    const url = `${server.base}/${org.slug}/settings/api/audit/live`;
    const streams = await Promise.all(Array.from({ length: STREAMS }, (_, i) => openStream(url, cookie, i > 0, received)));
    const withStreams = await load();
    for (const stream of streams) stream.abort();
    printTable(`## Live tails' memory: the one-port server under ${STREAM_LOAD_RATE.toLocaleString("en-US")} requests a second for ${STREAM_LOAD_SECONDS} s, resident set size`, [
      ["", "req/s", "p99", "RSS peak", "RSS at the end"],
      ["no live tail", Math.round(without.rps).toLocaleString("en-US"), `${without.p99} ms`, `${without.peak.toFixed(0)} MiB`, `${without.last.toFixed(0)} MiB`],
      [`${STREAMS} live tails (1 never reads)`, Math.round(withStreams.rps).toLocaleString("en-US"), `${withStreams.p99} ms`, `${withStreams.peak.toFixed(0)} MiB`, `${withStreams.last.toFixed(0)} MiB`],
    ]);
    console.log(`Idle before the load: ${idle.toFixed(0)} MiB. The ${STREAMS - 1} reading tails received ${received.events.toLocaleString("en-US")} request events (${(received.events / (STREAMS - 1)).toLocaleString("en-US")} each).`);
  } finally {
    await server.stop();
  }
}

export async function benchLiveTail(): Promise<void> {
  if (!process.env.DATABASE_URL) {
    console.log("\n## Live tail and body capture: skipped (set DATABASE_URL: it measures separate processes on PostgreSQL)");
    return;
  }
  const org = await createOrg("enterprise", { rateLimitPerMinute: 100_000 });
  const keys = await Promise.all(Array.from({ length: 10 }, (_, i) => insertKey(org.id, { name: `Capture ${i}` })));
  await getDb()
    .insert(products)
    .values(Array.from({ length: 25 }, (_, i) => ({ orgId: org.id, id: newId("prod"), name: `Bench product ${i}`, unitAmount: 1_000 + i, currency: "USD" })));
  await benchCapture(keys.map((key) => key.value));
  await benchStreamMemory(org, keys[0]!.value);
}
