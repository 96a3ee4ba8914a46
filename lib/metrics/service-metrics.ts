import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import { observeBatches } from "@/core/group-commit";
import { statusClassOf } from "@/core/request-log";
import { queueDepths } from "@/db/job-queue";
import { countOpenStreams } from "@/db/queries/live-tail";
import { poolMaxConnections } from "@/db";
import { countStatementsInFlight } from "@/db/driver-clients";
import { poolUsage, type PoolUsage } from "@/db/pool-usage";
import { STALE_STREAM_MS } from "@/lib/live-tail/stream";

/**
 * The service's Prometheus metrics (docs/operations.md#metrics), made only when METRICS_TOKEN is
 * set: without it nothing is created or observed, and /metrics is not served. Labels hold only
 * bounded sets (route templates, methods, status classes, error codes, queue and batch names):
 * never a key, an organization or a raw path.
 */

const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);
const SIZE_BUCKETS = [1, 2, 4, 8, 16, 32, 64, 128, 256, 500];

function createServiceMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requestSeconds = new Histogram({
    name: "http_request_duration_seconds",
    help: "Requests by route template (dashboard pages as (dashboard)), method and status class, by duration; its _count is the request count.",
    labelNames: ["route", "method", "status_class"] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const refusals = new Counter({
    name: "gateway_refusals_total",
    help: "Requests the /v1 gateway refused, by error code.",
    labelNames: ["code"] as const,
    registers: [registry],
  });
  const batchSize = new Histogram({
    name: "gateway_batch_size",
    help: "Requests per group-committed batch: admission (one statement admits them) and request_log_write (one statement logs them).",
    labelNames: ["batch"] as const,
    buckets: SIZE_BUCKETS,
    registers: [registry],
  });
  const batchSeconds = new Histogram({
    name: "gateway_batch_duration_seconds",
    help: "How long each group-committed batch took, statement and commit.",
    labelNames: ["batch"] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
    registers: [registry],
  });
  observeBatches(({ name, size, seconds }) => {
    batchSize.observe({ batch: name }, size);
    batchSeconds.observe({ batch: name }, seconds);
  });
  // Read from the database at each scrape, the same in every worker: the aggregate keeps one (max).
  new Gauge({
    name: "job_queue_depth",
    help: "Jobs waiting in each queue (queued or waiting to retry).",
    labelNames: ["queue"] as const,
    aggregator: "max",
    registers: [registry],
    async collect() {
      for (const [queue, depth] of Object.entries(await queueDepths())) this.set({ queue }, depth);
    },
  });
  new Gauge({
    name: "live_tail_streams_open",
    help: "Live-tail streams open across every process of the service.",
    aggregator: "max",
    registers: [registry],
    async collect() {
      this.set(await countOpenStreams(STALE_STREAM_MS));
    },
  });
  if (process.env.DATABASE_URL) poolGauges(registry);
  return {
    registry,
    /** One answered request: `route` is its template, or "(dashboard)" for what Next.js served. */
    request(route: string, method: string, status: number, seconds: number) {
      const labels = { route, method: METHODS.has(method) ? method : "OTHER", status_class: statusClassOf(status) ?? "other" };
      requestSeconds.observe(labels, seconds);
    },
    refused(code: string) {
      refusals.inc({ code });
    },
  };
}

/**
 * The pool's connections (used, idle, its size) and the statements waiting for one, per process:
 * the aggregate over the workers sums them. One read of pg_stat_activity serves every gauge of a scrape.
 */
function poolGauges(registry: Registry): void {
  countStatementsInFlight();
  let read: { at: number; usage: Promise<PoolUsage> } | null = null;
  const usage = () => {
    if (!read || performance.now() - read.at > 1000) read = { at: performance.now(), usage: poolUsage() };
    return read.usage;
  };
  new Gauge({
    name: "db_client_connections",
    help: "The database pool's connections by state: used (running a statement or in a transaction) and idle.",
    labelNames: ["state"] as const,
    registers: [registry],
    async collect() {
      const { used, idle } = await usage();
      this.set({ state: "used" }, used);
      this.set({ state: "idle" }, idle);
    },
  });
  new Gauge({
    name: "db_client_connections_pending_requests",
    help: "Statements sent on the database pool and not running: waiting for a connection or behind another statement on one.",
    registers: [registry],
    async collect() {
      this.set((await usage()).pending);
    },
  });
  new Gauge({ name: "db_client_connections_max", help: "The database pool's size: connections it opens at most.", registers: [registry] }).set(
    poolMaxConnections(),
  );
}

export type ServiceMetrics = ReturnType<typeof createServiceMetrics>;

const METRICS = Symbol.for("invoicing.service-metrics");
type GlobalWithMetrics = typeof globalThis & { [METRICS]?: ServiceMetrics | null };

/** The process's metrics, made on first use; null when METRICS_TOKEN is unset. */
export function serviceMetrics(): ServiceMetrics | null {
  const g = globalThis as GlobalWithMetrics;
  if (g[METRICS] === undefined) g[METRICS] = process.env.METRICS_TOKEN ? createServiceMetrics() : null;
  return g[METRICS];
}
