import type { IncomingMessage, ServerResponse } from "node:http";
import { sql } from "drizzle-orm";
import { getDb } from "@/db";
import { dataDirLockHeld } from "@/db/locks/data-dir";
import { jobQueueRunning } from "@/db/job-queue";
import { migrationsApplied } from "@/db/migrate";
import { log } from "@/core/log";

/**
 * The probes an orchestrator restarts and routes by (docs/operations.md#health-probes), answered
 * by each server before anything else sees the request: no key, no session, no request-log row,
 * no rate limit. `/healthz` says the process answers; `/readyz` runs the checks below and names
 * those that fail.
 */

/** Each check's bound: a database that hangs makes the probe fail, not wait. */
const CHECK_TIMEOUT_MS = 2000;

/** What a failing check says; the cause goes to the server's log, not to an unauthenticated caller. */
type Finding = "ok" | string;

const CHECKS: Record<string, () => Promise<Finding | null>> = {
  database: async () => {
    await getDb().execute(sql`select 1`);
    return "ok";
  },
  migrations: async () => ((await migrationsApplied()) ? "ok" : "not every committed migration is applied"),
  job_queue: async () => ((await jobQueueRunning()) ? "ok" : "not running in this process"),
  // Only on the embedded database with a folder: null leaves the check out.
  embedded_database_lock: async () => {
    const held = dataDirLockHeld();
    return held === null ? null : held ? "ok" : "this process no longer holds the folder's lock";
  },
};

async function runCheck(name: string, check: () => Promise<Finding | null>): Promise<Finding | null> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<Finding>((resolve) => {
    timer = setTimeout(() => resolve(`no answer within ${CHECK_TIMEOUT_MS / 1000} s`), CHECK_TIMEOUT_MS);
  });
  const answered = check().catch((error: unknown) => {
    log.error({ err: error, check: name }, "Readiness check failed");
    return "failed (the server's log has the error)";
  });
  try {
    return await Promise.race([answered, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

export interface Readiness {
  status: "ready" | "not_ready";
  failing?: string[];
  checks: Record<string, Finding>;
}

/** Every check at once; ready when each that applies says "ok". */
export async function readiness(): Promise<Readiness> {
  const findings = await Promise.all(Object.entries(CHECKS).map(async ([name, check]) => [name, await runCheck(name, check)] as const));
  const checks = Object.fromEntries(findings.filter((finding): finding is readonly [string, Finding] => finding[1] !== null));
  const failing = Object.keys(checks).filter((name) => checks[name] !== "ok");
  return failing.length === 0 ? { status: "ready", checks } : { status: "not_ready", failing, checks };
}

const PROBES: Record<string, () => Promise<{ status: number; body: unknown }>> = {
  "/healthz": async () => ({ status: 200, body: { status: "ok" } }),
  "/readyz": async () => {
    const body = await readiness();
    return { status: body.status === "ready" ? 200 : 503, body };
  },
};

/** Answers `/healthz` and `/readyz` (true), or leaves the request to the server (false). */
export function answerProbe(req: IncomingMessage, res: ServerResponse): boolean {
  const probe = PROBES[(req.url ?? "").split("?")[0]!];
  if (!probe) return false;
  const headers = { "Content-Type": "application/json", "Cache-Control": "no-store" };
  if (req.method !== "GET" && req.method !== "HEAD") {
    res.writeHead(405, { ...headers, Allow: "GET, HEAD" }).end(JSON.stringify({ status: "method_not_allowed" }));
    return true;
  }
  void probe().then(({ status, body }) => res.writeHead(status, headers).end(req.method === "HEAD" ? undefined : JSON.stringify(body)));
  return true;
}
