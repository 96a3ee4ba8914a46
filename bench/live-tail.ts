/**
 * The live tail's and request details' two figures, on PostgreSQL, in separate processes:
 * - the gateway with the bodies of failed requests captured, side by side with capture off
 *   (CAPTURE_ERROR_BODIES=false), rounds interleaved, under a load where one request in five
 *   fails validation with a body;
 * - the memory 5 live tails hold (one of them a client that never reads) under 1,000 requests a
 *   second: the heap after a full collection in this process, and the one-port server's resident
 *   set over phases of the same load.
 */
import { readFileSync } from "node:fs";
import autocannon from "autocannon";
import { getDb } from "@/db";
import { startServerProcess, type ServerProcess } from "@/tests/helpers/server-process";
import { createSession } from "@/db/queries/sessions";
import { memberships, users } from "@/db/schema";
import { openLiveTail } from "@/lib/live-tail/stream";
import { benchOrganization } from "./gateway-ratio";
import { newId } from "@/core/ids";
import { geometricMeanWithSpread, median, memorySnapshot, printTable, processCpuMs, startBenchApi } from "./lib";
import { productionServerAsMember } from "./usage-page-at-scale";

const CONNECTIONS = 50;
const ROUND_SECONDS = 6;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const STREAMS = 5;
const STREAM_LOAD_RATE = 1000;
const STREAM_LOAD_SECONDS = 20;
// A customer whose email fails validation: the 400 keeps both bodies.
const INVALID_BODY = JSON.stringify({
  name: "Bench Customer GmbH",
  email: "billing-at-example",
  address: { line1: "Hauptstrasse 1", city: "Berlin", country: "DE" },
});

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
    rows.push([
      String(i + 1),
      order.join(" then "),
      Math.round(on.rps).toLocaleString("en-US"),
      Math.round(off.rps).toLocaleString("en-US"),
      (on.rps / off.rps).toFixed(3),
      `${Math.round(on.cpuMicros)} / ${Math.round(off.cpuMicros)} µs`,
      on.failed.toLocaleString("en-US"),
    ]);
  }
  printTable(
    `## Body capture: the gateway with it on ÷ off (api-server.ts, ${CONNECTIONS} connections, ${ROUND_SECONDS} s rounds, 1 in 5 requests a 400 with a body)`,
    [["round", "order", "on req/s", "off req/s", "on ÷ off", "CPU per request on / off", "400s captured (on)"], ...rows],
  );
  console.log(`Throughput on ÷ off: median ${median(ratios).toFixed(3)}, ${geometricMeanWithSpread(ratios)}`);
  console.log(`CPU per request on ÷ off: median ${median(cpuRatios).toFixed(3)}, ${geometricMeanWithSpread(cpuRatios)}`);
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
        for (let read = await reader.read(); !read.done; read = await reader.read())
          received.events += decoder.decode(read.value).split("event: request").length - 1;
      } catch {
        // aborted at the end
      }
    })();
  }
  return connection;
}

async function benchStreamMemory(org: { id: string; slug: string }, key: string): Promise<void> {
  const signedIn = await productionServerAsMember(org, "## Live tails' memory");
  if (!signedIn) return;
  const { server, cookie } = signedIn;
  try {
    const pid = server.child.pid!;
    const load = async () => {
      const samples: number[] = [];
      const sampler = setInterval(() => samples.push(rssMiB(pid)), 1000);
      const result = await autocannon({
        url: server.base,
        connections: 20,
        duration: STREAM_LOAD_SECONDS,
        overallRate: STREAM_LOAD_RATE,
        requests: [{ method: "GET", path: "/v1/products?limit=10", headers: { "x-api-key": key } }],
      });
      clearInterval(sampler);
      return { rps: result.requests.average, p99: result.latency.p99, peak: Math.max(...samples), last: samples.at(-1)! };
    };
    // Warm: the route, the API and their first allocations.
    await fetch(`${server.base}/${org.slug}/settings/api/audit`, { headers: { cookie } });
    await autocannon({
      url: server.base,
      connections: 20,
      duration: 3,
      overallRate: STREAM_LOAD_RATE,
      requests: [{ method: "GET", path: "/v1/products?limit=10", headers: { "x-api-key": key } }],
    });
    const idle = rssMiB(pid);
    const received = { events: 0 };
    const url = `${server.base}/${org.slug}/settings/api/audit/live`;
    const phases: [string, Awaited<ReturnType<typeof load>>][] = [["no live tail", await load()]];
    // A client that never reads first, alone: its stream must stop reading the log once its queue is full.
    const streams = [await openStream(url, cookie, false, received)];
    phases.push(["1 tail that never reads", await load()]);
    streams.push(...(await Promise.all(Array.from({ length: STREAMS - 1 }, () => openStream(url, cookie, true, received)))));
    phases.push([`${STREAMS} tails (4 read everything)`, await load()]);
    phases.push([`${STREAMS} tails, ${STREAM_LOAD_SECONDS} s more`, await load()]);
    for (const stream of streams) stream.abort();
    printTable(
      `## Live tails' memory: the one-port server under ${STREAM_LOAD_RATE.toLocaleString("en-US")} requests a second, ${STREAM_LOAD_SECONDS} s per phase, resident set size`,
      [
        ["phase", "req/s", "p99", "RSS peak", "RSS at the end"],
        ...phases.map(([name, phase]) => [
          name,
          Math.round(phase.rps).toLocaleString("en-US"),
          `${phase.p99} ms`,
          `${phase.peak.toFixed(0)} MiB`,
          `${phase.last.toFixed(0)} MiB`,
        ]),
      ],
    );
    console.log(
      `Idle before the load: ${idle.toFixed(0)} MiB. The ${STREAMS - 1} reading tails received ${received.events.toLocaleString("en-US")} request events in ${2 * STREAM_LOAD_SECONDS} s.`,
    );
  } finally {
    await server.stop();
  }
}

/**
 * The heap 5 open tails hold in this process (the API served here too), after a full collection:
 * with the tails open at the end of the load, then with them closed. The one that never reads
 * holds a full queue by then.
 */
async function benchStreamHeap(org: { id: string; slug: string }, key: string): Promise<void> {
  const userId = newId("usr");
  await getDb()
    .insert(users)
    .values({ id: userId, name: "Bench Watcher", email: `${userId.toLowerCase()}@bench.test`, passwordHash: "-" });
  await getDb().insert(memberships).values({ orgId: org.id, userId, role: "member" });
  const sessionId = await createSession(userId, { ip: null, userAgent: "bench" }, { secondFactorPending: false });
  const api = await startBenchApi();
  try {
    const request = { method: "GET" as const, path: "/v1/products?limit=10", headers: { "x-api-key": key } };
    await autocannon({ url: api.base, connections: 20, duration: 3, overallRate: STREAM_LOAD_RATE, requests: [request] });
    const before = memorySnapshot().heapUsed;
    const connection = new AbortController();
    const viewer = { userId, sessionId, orgId: org.id, orgSlug: org.slug };
    const tails = await Promise.all(Array.from({ length: STREAMS }, () => openLiveTail(viewer, { mode: "live" }, null, connection.signal)));
    let events = 0;
    const readers = tails.slice(1).map(async ({ stream }) => {
      const decoder = new TextDecoder();
      const reader = stream.getReader();
      try {
        for (let read = await reader.read(); !read.done; read = await reader.read()) events += decoder.decode(read.value).split("event: request").length - 1;
      } catch {
        // closed at the end
      }
    });
    const load = await autocannon({ url: api.base, connections: 20, duration: STREAM_LOAD_SECONDS, overallRate: STREAM_LOAD_RATE, requests: [request] });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const open = memorySnapshot().heapUsed;
    connection.abort();
    await Promise.all(tails.map(({ stream }) => stream.cancel().catch(() => {})));
    await Promise.all(readers);
    const closed = memorySnapshot().heapUsed;
    const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
    printTable(
      `## Live tails' heap: ${STREAMS} tails in this process (1 never reads) under ${Math.round(load.requests.average).toLocaleString("en-US")} requests a second for ${STREAM_LOAD_SECONDS} s, heapUsed after gc()`,
      [
        ["before the tails", "tails open, load over", "tails closed", "held by the 5 tails"],
        [mib(before), mib(open), mib(closed), mib(open - closed)],
      ],
    );
    console.log(
      `The never-reading tail queued ${tails[0]!.stats.rowsQueued.toLocaleString("en-US")} rows; each reading tail ${Math.round(events / (STREAMS - 1)).toLocaleString("en-US")}.`,
    );
  } finally {
    await api.close();
  }
}

export async function benchLiveTail(): Promise<void> {
  if (!process.env.DATABASE_URL) {
    console.log("\n## Live tail and body capture: skipped (set DATABASE_URL: it measures separate processes on PostgreSQL)");
    return;
  }
  const { org, values: keys } = await benchOrganization("Capture");
  await benchCapture(keys);
  await benchStreamHeap(org, keys[0]!);
  await benchStreamMemory(org, keys[0]!);
}
