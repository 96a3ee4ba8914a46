/**
 * What log streams cost the request path (docs/performance.md#log-streams-cost-on-the-request-path):
 * "the request path pays nothing" (docs/features/log-streams.md#delivery), held to 3 %. One
 * compiled API server on PostgreSQL under the gateway benches' load (50 connections,
 * GET /v1/products?limit=10), in rounds that take turns: A with no stream, B with the
 * organization's 3 streams (requests, activity and alerts, live mode) to signed HTTPS endpoints on
 * a receiver in this process, which the server's every-2-seconds delivery (servers/maintenance.ts)
 * sends to while the load runs. Each B round checks that the streams carried its requests: a bench
 * whose streams sent nothing would prove nothing.
 * `npm run bench -- --only=log-streams`; BENCH_ROUNDS pairs (6).
 */
import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { eq, sql } from "drizzle-orm";
import { getDb } from "@/db";
import { rowsOf } from "@/db/rows";
import { logStreams } from "@/db/schema";
import { LOG_STREAMS_MAX } from "@/core/log-streams";
import { createLogStream } from "@/lib/log-streams/streams";
import { deliveryPids, startServerProcess, type ServerProcess } from "@/tests/helpers/server-process";
import { benchOrganization, load, type LoadRound } from "./gateway-ratio";
import type { ReceiverAsk, ReceiverCounts } from "./log-stream-receiver";
import { count, geometricMeanWithSpread, loadCells, median, postgresCpuMs, printLines, printTable, processCpuMs, statusesText } from "./lib";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);
const ROUND_SECONDS = 6;
const WARM_UP_SECONDS = 2;
/** How long a B round's streams get, after its load, to deliver what they have not yet. */
const CATCH_UP_MS = 20_000;
const SECRET = `whsec_${Buffer.from("log streams bench secret, 32 B!!").toString("base64")}`;

/**
 * The destination's receiver (bench/log-stream-receiver.ts) in a process of its own, and how to ask
 * it what it received: it parses about 560 KB of JSON a batch, which a real destination does on
 * its own machines.
 */
async function countingReceiver() {
  // A session of its own, whose scheduling group takes the lowest priority too (servers/lowest-priority.ts).
  const child = fork(fileURLToPath(new URL("./log-stream-receiver.ts", import.meta.url)), { execArgv: ["--import", "tsx"], detached: true });
  const answer = <T>(ask: ReceiverAsk) =>
    new Promise<T>((resolve) => {
      child.once("message", (message) => resolve(message as T));
      child.send(ask);
    });
  const { port } = await new Promise<{ port: number }>((resolve) => child.once("message", (message) => resolve(message as { port: number })));
  return {
    pid: child.pid!,
    url: `http://127.0.0.1:${port}`,
    counts: () => answer<ReceiverCounts>({ ask: "counts" }),
    delivered: async (streamId: string) => new Set(await answer<string[]>({ ask: "delivered", streamId })),
    reset: () => answer<string>({ ask: "reset" }),
    close: () => new Promise<void>((resolve) => (child.once("exit", () => resolve()), child.send({ ask: "close" }))),
  };
}
type Receiver = Awaited<ReturnType<typeof countingReceiver>>;

interface Round extends LoadRound {
  /** Answers in the round, its warm-up included (B's streams carry both). */
  answered: number;
  /**
   * CPU (user and system) per answer of the measured part, µs: the server process's; PostgreSQL's,
   * all its processes; this process's (the load generator); the server's delivery process's; the receiver's.
   */
  serverMicros: number;
  postgresMicros: number;
  benchMicros: number;
  deliveryMicros: number;
  receiverMicros: number;
}

interface StreamedRound extends Round {
  /** Distinct request events the receiver had when the load ended, and once the streams had caught up; and those it got twice. */
  atEnd: number;
  delivered: number;
  duplicates: number;
  /** Request events the streams owe: the organization's requests logged after each one's starting cursor. */
  owed: number;
  /** Activity and alert events: the load makes none, so their queries run each turn and find nothing. */
  others: number;
  batches: number;
  catchUpMs: number;
  /** The streams' last errors and shortfalls when the round ended (whatWentWrong). */
  notes: string[];
}

const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));
const answers = (round: LoadRound) => Object.values(round.statuses).reduce((sum, n) => sum + n, 0);

/** Warm-up then the measured load, with the CPU each side spent on the measured part. */
async function loadRound(server: ServerProcess, keys: string[], receiverPid: number): Promise<Round> {
  const warm = await load(server.base, keys, WARM_UP_SECONDS);
  const pid = server.child.pid!;
  const [delivery] = deliveryPids(pid);
  if (delivery === undefined) throw new Error("The server runs no log streams' delivery process");
  const cpuMs = () => [processCpuMs(pid), postgresCpuMs(), processCpuMs(delivery), processCpuMs(receiverPid)];
  const [before, benchBefore] = [cpuMs(), process.cpuUsage()];
  const loaded = await load(server.base, keys, ROUND_SECONDS);
  const bench = process.cpuUsage(benchBefore);
  const responses = answers(loaded);
  const [serverMicros, postgresMicros, deliveryMicros, receiverMicros] = cpuMs().map((after, i) => ((after - before[i]!) * 1000) / responses);
  return {
    ...loaded,
    answered: answers(warm) + responses,
    serverMicros: serverMicros!,
    postgresMicros: postgresMicros!,
    deliveryMicros: deliveryMicros!,
    receiverMicros: receiverMicros!,
    benchMicros: (bench.user + bench.system) / responses,
  };
}

/**
 * A round with the organization's 3 streams, created just before it, then given CATCH_UP_MS to
 * deliver the rest, then deleted. Each stream owes the requests logged after its own starting
 * cursor: a request the previous round left in flight can be logged between one stream's creation
 * and the next's, and is carried only by those created before it was.
 */
async function streamedRound(server: ServerProcess, orgId: string, keys: string[], receiver: Receiver): Promise<StreamedRound> {
  await receiver.reset();
  for (let i = 0; i < LOG_STREAMS_MAX; i++) {
    const settings = { kind: "https" as const, url: `${receiver.url}/stream-${i}` };
    const input = {
      name: `Bench ${i}`,
      settings,
      secrets: { kind: "https" as const, signingSecret: SECRET },
      sources: ["requests" as const, "activity" as const, "alerts" as const],
    };
    await createLogStream(getDb(), orgId, { ...input, mode: "live" }, null);
  }
  const created = await getDb().select({ id: logStreams.id, start: logStreams.requestsAfter }).from(logStreams).where(eq(logStreams.orgId, orgId));
  const starts = new Map(created.map((stream) => [stream.id, stream.start]));
  const round = await loadRound(server, keys, receiver.pid);
  const atEnd = (await receiver.counts()).distinct;
  const owedNow = async () =>
    rowsOf<{ n: number }>(
      await getDb().execute(
        sql`select count(*)::int as n from request_log r, unnest(${`{${[...starts.values()].join(",")}}`}::bigint[]) s where r.org_id = ${orgId} and r.id > s`,
      ),
    )[0]!.n;
  let owed = await owedNow();
  const catchUpStarted = performance.now();
  while (performance.now() - catchUpStarted < CATCH_UP_MS) {
    if ((await receiver.counts()).distinct >= owed) {
      // The requests the load generator left in flight when it stopped are logged just after: count again.
      const again = await owedNow();
      if (again === owed) break;
      owed = again;
    }
    await sleep(100);
  }
  const catchUpMs = performance.now() - catchUpStarted;
  const notes = await whatWentWrong(orgId, starts, receiver);
  await getDb().delete(logStreams).where(eq(logStreams.orgId, orgId));
  const { events, distinct: delivered, batches } = await receiver.counts();
  if (delivered === 0) throw new Error(`The streams delivered nothing: ${notes.join("; ")}`);
  return { ...round, atEnd, owed, delivered, duplicates: events.request - delivered, others: events.activity + events.alert, batches, catchUpMs, notes };
}

/**
 * Each stream's last error, and for one that has not delivered every request logged after its
 * starting cursor (`starts`): how many it lacks, whether they lie behind its cursor now (skipped)
 * or after it (not yet sent), and its lease.
 */
async function whatWentWrong(orgId: string, starts: Map<string, number>, receiver: Receiver): Promise<string[]> {
  const streams = await getDb()
    .select({ id: logStreams.id, error: logStreams.lastError, cursor: logStreams.requestsAfter, leaseUntil: logStreams.leaseUntil })
    .from(logStreams)
    .where(eq(logStreams.orgId, orgId));
  const rows = rowsOf<{ id: number; request_id: string }>(
    await getDb().execute(sql`select id::float8 as id, request_id from request_log where org_id = ${orgId} and id > ${Math.min(...starts.values())}`),
  );
  const notes: string[] = [];
  for (const stream of streams) {
    const delivered = await receiver.delivered(stream.id);
    const missing = rows.filter((row) => row.id > starts.get(stream.id)! && !delivered.has(row.request_id));
    const behind = missing.filter((row) => row.id <= stream.cursor).length;
    const lease = stream.leaseUntil ? `leased until ${stream.leaseUntil.toISOString()}` : "not leased";
    if (stream.error) notes.push(`${stream.id}: ${stream.error}`);
    if (missing.length) notes.push(`${stream.id} lacks ${missing.length} requests, ${behind} of them behind its cursor ${stream.cursor}; ${lease}`);
  }
  return notes;
}

export async function benchLogStreamsCost(): Promise<void> {
  if (!process.env.DATABASE_URL) return console.log("\n## Log streams' cost: skipped (set DATABASE_URL: it measures the compiled server on PostgreSQL)");
  const { org, values } = await benchOrganization("Log streams");
  const receiver = await countingReceiver();
  // The streams' receiver is on loopback, which the destinations' SSRF guard refuses unless told (docs/features/webhooks.md#ssrf-guard).
  const server = await startServerProcess("api-server.ts", { WEBHOOK_ALLOW_PRIVATE: "true" });
  const none: Round[] = [];
  const streamed: StreamedRound[] = [];
  try {
    for (let pair = 0; pair < ROUNDS; pair++) {
      // Which goes first alternates, so the log growing and the machine drifting favour neither.
      const turns = [
        async () => none.push(await loadRound(server, values, receiver.pid)),
        async () => streamed.push(await streamedRound(server, org.id, values, receiver)),
      ];
      for (const turn of pair % 2 === 0 ? turns : turns.reverse()) await turn();
    }
  } finally {
    await server.stop();
    await receiver.close();
  }

  const ratios = streamed.map((b, i) => b.requestsPerSecond / none[i]!.requestsPerSecond);
  const p99Ratios = streamed.map((b, i) => b.p99 / none[i]!.p99);
  printTable(
    `## Log streams' cost on the request path: ${ROUNDS} pairs of ${ROUND_SECONDS} s rounds after ${WARM_UP_SECONDS} s of warm-up, A no stream, B ${LOG_STREAMS_MAX} streams (requests, activity, alerts) to signed HTTPS destinations on a loopback receiver, taking turns to go first`,
    [
      [
        "pair",
        "A req/s",
        "p50",
        "p99",
        "B req/s",
        "p50",
        "p99",
        "B ÷ A",
        "µs CPU / request server, A / B",
        "PostgreSQL, A / B",
        "B requests (warm-up incl.)",
        "events at the load's end / owed",
        "events delivered (twice)",
        "batches",
        "catch-up",
      ],
      ...streamed.map((b, i) => {
        const a = none[i]!;
        return [
          String(i + 1),
          ...loadCells(a, b),
          ratios[i]!.toFixed(3),
          `${Math.round(a.serverMicros)} / ${Math.round(b.serverMicros)}`,
          `${Math.round(a.postgresMicros)} / ${Math.round(b.postgresMicros)}`,
          count(b.answered),
          `${count(b.atEnd)} / ${count(b.owed)}`,
          `${count(b.delivered)} (${count(b.duplicates)})${b.delivered === b.owed ? "" : " (DIFFER)"}`,
          count(b.batches),
          `${(b.catchUpMs / 1000).toFixed(1)} s`,
        ];
      }),
    ],
  );
  const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
  const cpu = (read: (round: Round) => number) => `${median(none.map(read)).toFixed(0)} / ${median(streamed.map(read)).toFixed(0)}`;
  printLines([
    [
      "B ÷ A throughput",
      `median ${median(ratios).toFixed(3)}, range ${Math.min(...ratios).toFixed(3)}–${Math.max(...ratios).toFixed(3)}, ${geometricMeanWithSpread(ratios)} (goal: within 3 %, ≥ 0.97)`,
    ],
    ["B ÷ A p99", `median ${median(p99Ratios).toFixed(3)}, range ${Math.min(...p99Ratios).toFixed(3)}–${Math.max(...p99Ratios).toFixed(3)}`],
    [
      "µs CPU / request, median A / B",
      `server ${cpu((r) => r.serverMicros)}, PostgreSQL ${cpu((r) => r.postgresMicros)}, this process (the load) ${cpu((r) => r.benchMicros)}, delivery process ${cpu((r) => r.deliveryMicros)}, receiver ${cpu((r) => r.receiverMicros)}`,
    ],
    [
      `B: requests answered / request events owed (${LOG_STREAMS_MAX} streams) / delivered`,
      `${count(sum(streamed.map((b) => b.answered)))} / ${count(sum(streamed.map((b) => b.owed)))} / ${count(sum(streamed.map((b) => b.delivered)))}`,
    ],
    ["activity and alert events delivered in B", count(sum(streamed.map((b) => b.others)))],
    ["the streams' errors and shortfalls in B", streamed.flatMap((b, i) => b.notes.map((note) => `pair ${i + 1}: ${note}`)).join("; ") || "none"],
    ["statuses, A; B", `${none.map((a) => statusesText(a.statuses)).join(", ")}; ${streamed.map((b) => statusesText(b.statuses)).join(", ")}`],
  ]);
}
