/** Small measuring and printing helpers for bench/run.ts. */
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { createApiApp } from "@/lib/api/app";
import { readdirSync, readFileSync } from "node:fs";

/** The real /v1 app on an ephemeral localhost port, in this process. */
export async function startBenchApi(): Promise<{ base: string; close: () => Promise<void> }> {
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const started = serve({ fetch: createApiApp().fetch, port: 0, hostname: "127.0.0.1" }, () => resolve(started));
  });
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Nearest-rank percentile of an ascending array (p from 0 to 100). */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

export function median(values: number[]): number {
  return percentile(
    [...values].sort((a, b) => a - b),
    50,
  );
}

/**
 * Runs `run` `warmUp` times unmeasured (plans cached, pages in memory), then `repeats` times one
 * after another, returning each run's milliseconds and the last run's result.
 */
export async function timeRepeated<T>(run: () => Promise<T>, repeats: number, warmUp = 2): Promise<{ samples: number[]; result: T }> {
  for (let i = 0; i < warmUp; i++) await run();
  const samples: number[] = [];
  let result!: T;
  for (let i = 0; i < repeats; i++) {
    const started = performance.now();
    result = await run();
    samples.push(performance.now() - started);
  }
  return { samples, result };
}

export interface LoadResult {
  requests: number;
  elapsedMs: number;
  /** Per-request milliseconds, ascending: from sending to having read the whole body. */
  latencies: number[];
  statuses: Map<number, number>;
  /** Body size of the last response, to tell cheap answers from large ones. */
  bodyBytes: number;
}

/** How long a load lasts: a number of requests, or seconds. */
export type LoadAmount = number | { seconds: number };

/**
 * Sends `amount` requests (or sends for `amount.seconds`) through `concurrency` loops that each
 * keep one request in flight, the way a client pool does; fetch (undici) keeps the connections
 * alive between requests. `init` may be a function of the request's number (to cycle keys, say);
 * `onResponse` sees each answer's headers.
 */
export async function runLoad(
  url: string,
  init: RequestInit | ((request: number) => RequestInit),
  amount: LoadAmount,
  concurrency: number,
  onResponse?: (response: Response) => void,
): Promise<LoadResult> {
  const latencies: number[] = [];
  const statuses = new Map<number, number>();
  const total = typeof amount === "number" ? amount : Infinity;
  const until = typeof amount === "number" ? Infinity : performance.now() + amount.seconds * 1000;
  const more = () => issued < total && performance.now() < until;
  let issued = 0;
  let bodyBytes = 0;
  const loop = async () => {
    while (more()) {
      const request = issued++;
      const sent = performance.now();
      const response = await fetch(url, typeof init === "function" ? init(request) : init);
      bodyBytes = (await response.arrayBuffer()).byteLength;
      latencies.push(performance.now() - sent);
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      onResponse?.(response);
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: Math.min(concurrency, total) }, loop));
  const elapsedMs = performance.now() - started;
  return { requests: issued, elapsedMs, latencies: latencies.sort((a, b) => a - b), statuses, bodyBytes };
}

export const ms = (value: number) => `${value.toFixed(2)} ms`;
export const count = (value: number) => value.toLocaleString("en-US");
export const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
export const times = (ratio: number) => `${ratio.toFixed(1)}×`;

/** Each round's req/s, p50 and p99, one round after the other: servers side by side in a table row. */
export function loadCells(...rounds: { requestsPerSecond: number; p50: number; p99: number }[]): string[] {
  return rounds.flatMap((round) => [count(Math.round(round.requestsPerSecond)), ms(round.p50), ms(round.p99)]);
}

/** Prints a section heading and a table whose first row is the header; numbers right-aligned. */
export function printTable(title: string, rows: string[][]): void {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? "").length)));
  console.log(`\n${title}`);
  rows.forEach((row, index) => {
    const cells = row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!)));
    console.log(`  ${cells.join("  ")}`);
    if (index === 0) console.log(`  ${widths.map((width) => "-".repeat(width)).join("  ")}`);
  });
}

/** "label: value" lines, labels aligned. */
export function printLines(lines: [string, string][]): void {
  const width = Math.max(...lines.map(([label]) => label.length));
  for (const [label, value] of lines) console.log(`  ${`${label}:`.padEnd(width + 1)} ${value}`);
}

/** A process's CPU time so far, user and system, in ms (Linux /proc; clock ticks of 10 ms). */
export function processCpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  // utime and stime are fields 14 and 15 of the line, 12 and 13 after "pid (comm) ".
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * A process's main thread so far, from the scheduler (Linux /proc schedstat): ns on a CPU, and ns
 * ready to run but waiting for one (another process had it).
 */
export function mainThreadSchedule(pid: number): { onCpuNs: number; waitingNs: number } {
  const [onCpuNs, waitingNs] = readFileSync(`/proc/${pid}/task/${pid}/schedstat`, "utf8").trim().split(" ").map(Number);
  return { onCpuNs: onCpuNs!, waitingNs: waitingNs! };
}

/** The CPU time so far, in ms, of every process of the local PostgreSQL server (its backends included). */
export function postgresCpuMs(): number {
  let total = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      if (stat.slice(stat.indexOf("(") + 1, stat.indexOf(")")) === "postgres") total += processCpuMs(Number(entry));
    } catch {
      // The process exited between the listing and the read: its time is gone either way.
    }
  }
  return total;
}

/**
 * The rounds' geometric mean and the range of two standard errors around it (about 95 %), on the
 * log scale: the mean cancels what going first or second does to a round, as the order alternates,
 * and the range says whether the rounds can tell a 5 % difference from the noise at all.
 */
export function geometricMeanWithSpread(ratios: number[]): string {
  const logs = ratios.map(Math.log);
  const mean = logs.reduce((sum, l) => sum + l, 0) / logs.length;
  const variance = logs.reduce((sum, l) => sum + (l - mean) ** 2, 0) / Math.max(1, logs.length - 1);
  const twoErrors = 2 * Math.sqrt(variance / logs.length);
  return `geometric mean ${Math.exp(mean).toFixed(3)} (±2 standard errors: ${Math.exp(mean - twoErrors).toFixed(3)}–${Math.exp(mean + twoErrors).toFixed(3)})`;
}

/** Memory after a full collection when the script runs with --expose-gc, so heapUsed counts live objects, not garbage. */
export function memorySnapshot(): ReturnType<typeof process.memoryUsage> {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage();
}

/** A round's statuses as "200×14004 429×3". */
export function statusesText(statuses: Record<string, number>): string {
  return Object.entries(statuses)
    .map(([code, n]) => `${code}×${n}`)
    .join(" ");
}
