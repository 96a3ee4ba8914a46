import { mkdtempSync, rmSync, unlinkSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { acquireDataDirLock } from "@/db/locks/data-dir";
import { jobQueue, stopJobQueue } from "@/db/job-queue";
import { rowsOf } from "@/db/rows";
import { readiness } from "@/servers/health-probes";
import { apiServerBehindRelay } from "./helpers/database-relay";
import { eventually } from "./helpers/eventually";
import { createOrg, insertKey } from "./helpers/factories";
import { listenOnePort } from "./helpers/one-port";
import type { ServerProcess } from "./helpers/server-process";

// The probes of docs/operations.md#health-probes: /healthz answers while the process does,
// /readyz names each failing check with a 503; neither needs a key, writes a request-log row or counts.

const READY_ON_A_SERVER = { database: "ok", migrations: "ok", job_queue: "ok" };

async function probe(base: string, path: string, init?: RequestInit) {
  const response = await fetch(`${base}${path}`, init);
  return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, unknown> };
}

describe("readiness, in this process", () => {
  beforeAll(async () => void (await jobQueue()));

  it("is ready when the database answers, every migration is applied and the job queue runs", async () => {
    expect(await readiness()).toEqual({ status: "ready", checks: READY_ON_A_SERVER });
  });

  it("names the migrations while the newest committed one is not applied, and is ready again once it is", async () => {
    const [newest] = rowsOf<{ id: number; hash: string; created_at: string }>(
      await getDb().execute(
        sql`delete from drizzle.__drizzle_migrations where created_at = (select max(created_at) from drizzle.__drizzle_migrations) returning *`,
      ),
    );
    try {
      expect(await readiness()).toEqual({
        status: "not_ready",
        failing: ["migrations"],
        checks: { ...READY_ON_A_SERVER, migrations: "not every committed migration is applied" },
      });
    } finally {
      await getDb().execute(
        sql`insert into drizzle.__drizzle_migrations (id, hash, created_at) values (${newest!.id}, ${newest!.hash}, ${newest!.created_at})`,
      );
    }
    expect((await readiness()).status).toBe("ready");
  });

  it("with an embedded database folder, names its lock once the lock file no longer names this process", async () => {
    // What a server on the embedded database does at start (db/index.ts), on a folder of this test's own.
    const folder = mkdtempSync(path.join(os.tmpdir(), "readyz-"));
    const release = acquireDataDirLock(folder);
    try {
      expect(await readiness()).toEqual({ status: "ready", checks: { ...READY_ON_A_SERVER, embedded_database_lock: "ok" } });
      unlinkSync(path.join(folder, ".owner.pid"));
      expect(await readiness()).toMatchObject({
        status: "not_ready",
        failing: ["embedded_database_lock"],
        checks: { embedded_database_lock: "this process no longer holds the folder's lock" },
      });
    } finally {
      release();
      rmSync(folder, { recursive: true, force: true });
    }
    expect(await readiness()).toEqual({ status: "ready", checks: READY_ON_A_SERVER });
  });

  it("names the job queue once it has stopped, and is ready again once it runs", async () => {
    await stopJobQueue();
    expect(await readiness()).toMatchObject({ status: "not_ready", failing: ["job_queue"], checks: { job_queue: "not running in this process" } });
    await jobQueue();
    expect((await readiness()).status).toBe("ready");
  });
});

describe("the probes on the one-port listener", () => {
  let listener: Awaited<ReturnType<typeof listenOnePort>>;
  let base = "";
  const reachedNext: string[] = [];
  beforeAll(async () => {
    await jobQueue();
    listener = await listenOnePort({ handleNext: (req, res) => (reachedNext.push(req.url ?? ""), res.writeHead(200).end("Next")) });
    base = listener.base;
  });
  afterAll(() => listener.close());

  it("answer before Next and the API, uncached, with a key or without, and write no request-log row", async () => {
    const org = await createOrg("pro");
    const key = await insertKey(org.id);
    expect(await probe(base, "/healthz")).toMatchObject({ status: 200, body: { status: "ok" } });
    const ready = await probe(base, "/readyz?verbose=1", { headers: { "X-API-Key": key.value } });
    expect(ready).toMatchObject({ status: 200, body: { status: "ready", checks: READY_ON_A_SERVER } });
    expect(ready.headers.get("cache-control")).toBe("no-store");
    expect(reachedNext).toEqual([]);
    // A plan with a quota, so a counted call would show in monthly_usage.
    const [traces] = rowsOf<{ logged: number; counted: number; windows: number }>(
      await getDb().execute(sql`select (select count(*) from request_log where org_id = ${org.id})::int as logged,
        (select coalesce(sum(count), 0) from monthly_usage where org_id = ${org.id})::int as counted,
        (select count(*) from rate_limit_windows where org_id = ${org.id})::int as windows`),
    );
    expect(traces).toEqual({ logged: 0, counted: 0, windows: 0 });
  });

  it("answer HEAD without a body and refuse other methods with 405", async () => {
    const head = await fetch(`${base}/readyz`, { method: "HEAD" });
    expect([head.status, await head.text()]).toEqual([200, ""]);
    const post = await fetch(`${base}/healthz`, { method: "POST" });
    expect([post.status, post.headers.get("allow")]).toEqual([405, "GET, HEAD"]);
  });

  it("are exact paths: anything else under them is Next's", async () => {
    const response = await fetch(`${base}/healthz/more`);
    expect(await response.text()).toBe("Next");
  });
});

describe.skipIf(!process.env.DATABASE_URL)("the API server on PostgreSQL", () => {
  let server: ServerProcess;
  let relay: Awaited<ReturnType<typeof apiServerBehindRelay>>["relay"];
  let stop = async () => {};
  beforeAll(async () => {
    ({ server, relay, stop } = await apiServerBehindRelay());
  });
  afterAll(() => stop());

  it("names the database while it does not answer, stays alive meanwhile, and is ready again once it does", async () => {
    expect(await probe(server.base, "/readyz")).toMatchObject({ status: 200, body: { status: "ready", checks: READY_ON_A_SERVER } });
    relay.cut();
    const down = await eventually(
      () => probe(server.base, "/readyz"),
      (answer) => answer.status === 503,
    );
    expect(down.body).toMatchObject({ status: "not_ready", failing: expect.arrayContaining(["database"]) });
    expect((await probe(server.base, "/healthz")).status).toBe(200);
    relay.restore();
    await eventually(
      () => probe(server.base, "/readyz"),
      (answer) => answer.status === 200,
    );
  });
});
