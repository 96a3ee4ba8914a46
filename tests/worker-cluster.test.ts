import { once } from "node:events";
import { existsSync, readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { exclusiveTask } from "@/servers/maintenance";
import { trySessionLock } from "@/db/locks/session";
import { databaseOnThisMachine, workerCount } from "@/servers/worker-cluster";
import { createOrg, insertKey } from "./helpers/factories";
import { until } from "./helpers/eventually";
import { productionBuildExists, startServerProcess, workerPids } from "./helpers/server-process";
import { databaseUrl } from "./setup/database-server";

const postgres = { DATABASE_URL: "postgres://db.internal/invoicing" };

describe("how many workers a server runs", () => {
  it("one per core on a PostgreSQL elsewhere, or WEB_CONCURRENCY", () => {
    expect(workerCount(postgres)).toEqual({ workers: availableParallelism(), notice: null });
    expect(workerCount(postgres, 4)).toEqual({ workers: 4, notice: null });
    expect(workerCount({ ...postgres, WEB_CONCURRENCY: "3" })).toEqual({ workers: 3, notice: null });
    for (const bad of ["0", "two", "1.5"])
      expect(() => workerCount({ ...postgres, WEB_CONCURRENCY: bad })).toThrow(
        `WEB_CONCURRENCY must be a whole number of worker processes, at least 1 (it is "${bad}").`,
      );
  });

  it("leaves a core to a PostgreSQL on this machine, and runs one at least", () => {
    const here = [
      "postgres://postgres@127.0.0.1:5432/invoicing",
      "postgres://postgres@localhost/invoicing",
      "postgres://postgres@[::1]:5432/invoicing",
      "postgres:///invoicing?host=/var/run/postgresql",
      "postgresql://app@/invoicing?host=/var/run/postgresql",
    ];
    for (const url of here) {
      expect(databaseOnThisMachine(url)).toBe(true);
      expect(workerCount({ DATABASE_URL: url }, 4).workers).toBe(3);
      expect(workerCount({ DATABASE_URL: url }, 2).workers).toBe(1);
      expect(workerCount({ DATABASE_URL: url }, 1).workers).toBe(1);
      expect(workerCount({ DATABASE_URL: url, WEB_CONCURRENCY: "2" }, 2).workers).toBe(2);
    }
    for (const url of ["postgres://db.internal/invoicing", "postgres://10.0.0.7:6432/invoicing", "not a url"]) expect(databaseOnThisMachine(url)).toBe(false);
  });

  it("one on the embedded database, saying so when asked for more", () => {
    expect(workerCount({})).toEqual({ workers: 1, notice: null });
    expect(workerCount({ WEB_CONCURRENCY: "1" })).toEqual({ workers: 1, notice: null });
    const { workers, notice } = workerCount({ WEB_CONCURRENCY: "4" });
    expect(workers).toBe(1);
    expect(notice).toContain("the embedded database has a single owning process: running one");
  });
});

describe("the maintenance timers", () => {
  it("run each task once at a time: a tick that finds the last run going is skipped", async () => {
    let runs = 0;
    let started = () => {};
    let release = () => {};
    const task = exclusiveTask(727_309_001, async () => {
      runs++;
      started();
      await new Promise<void>((resolve) => (release = resolve));
    });
    // A run once its task has begun (wrapped: an awaited promise would wait for its end).
    const begin = async () => {
      const begun = new Promise<void>((resolve) => (started = resolve));
      const run = task();
      await begun;
      return { run };
    };
    const first = await begin();
    expect(await task()).toBe("skipped");
    release();
    expect(await first.run).toBe("ran");
    const again = await begin();
    release();
    expect(await again.run).toBe("ran");
    expect(runs).toBe(2);
  });

  it.skipIf(!process.env.DATABASE_URL)("and once at a time across processes: another connection holding the task's lock skips it", async () => {
    let release = () => {};
    let holding = () => {};
    const held = new Promise<void>((resolve) => (holding = resolve));
    // Its work starts only once its connection holds the lock.
    const holder = trySessionLock(727_309_002, () => (holding(), new Promise<void>((resolve) => (release = resolve))));
    await held;
    let ran = false;
    expect(await trySessionLock(727_309_002, async () => void (ran = true))).toBe("skipped");
    release();
    expect(await holder).toBe("ran");
    expect(ran).toBe(false);
    expect(await trySessionLock(727_309_002, async () => void (ran = true))).toBe("ran");
  });
});

describe.skipIf(!process.env.DATABASE_URL)("npm run start:api with two workers", () => {
  it("drains on SIGTERM: every request it had accepted is answered, then it exits 0", async () => {
    const server = await startServerProcess("api-server.ts", { WEB_CONCURRENCY: "2" });
    const org = await createOrg("enterprise", { rateLimitPerMinute: 100_000 });
    const { value } = await insertKey(org.id);
    let exited = false;
    server.child.once("exit", () => (exited = true));
    const exit = once(server.child, "exit");
    let inFlight: Promise<number>[] = [];
    // Holding the rate-limit windows keeps every admission waiting: the requests are in the workers' hands.
    await getDb().transaction(async (tx) => {
      await tx.execute(sql`lock table rate_limit_windows in exclusive mode`);
      inFlight = Array.from({ length: 40 }, () => fetch(`${server.base}/v1/invoices`, { headers: { "X-API-Key": value } }).then((response) => response.status));
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      server.child.kill("SIGTERM");
      // Once the primary has taken the signal and told its workers to drain, it is still running; had it
      // let the held requests go, they would not all be answered 200 below.
      expect(await until(async () => server.output().includes("SIGTERM: draining"), 10_000)).toBe(true);
      expect(exited).toBe(false);
    });
    expect(await Promise.all(inFlight)).toEqual(Array(40).fill(200));
    expect((await exit)[0]).toBe(0);
  });

  it("stops, saying why, when a worker dies before it listens (a database it cannot reach), instead of restarting it forever", async () => {
    const started = startServerProcess("api-server.ts", { WEB_CONCURRENCY: "2", DATABASE_URL: databaseUrl(process.env.DATABASE_URL!, "no_such_database") });
    await expect(started).rejects.toThrow(/exited with 1[^]*before it listened; stopping the server/);
  });
});

/** The worker processes of the server with pid `primary`, by kind (servers/worker-cluster.ts tells each its role in its environment). */
function workersByRole(primary: number): { front: number[]; back: number[]; socket: string } {
  const environs = workerPids(primary).map((pid) => ({ pid, env: readFileSync(`/proc/${pid}/environ`, "utf8").split("\0") }));
  const ofRole = (role: string) => environs.filter(({ env }) => env.includes(`INVOICING_WORKER_ROLE=${role}`)).map(({ pid }) => pid);
  const socket = environs[0]!.env.find((entry) => entry.startsWith("INVOICING_WORKER_SOCKET="))!.split("=")[1]!;
  return { front: ofRole("front"), back: ofRole("back"), socket };
}

// server.ts serves a production build: .ci/run's PostgreSQL pass runs after the build the e2e tests made.
describe.skipIf(!process.env.DATABASE_URL || !productionBuildExists())(
  "npm start on PostgreSQL: the API's workers on the port, the dashboard's behind them",
  () => {
    it("answers /v1 in front and pages from behind, replaces a dashboard worker that dies while the API goes on, and drains both kinds on SIGTERM", async () => {
      const server = await startServerProcess("server.ts", { WEB_CONCURRENCY: "1" });
      const exit = once(server.child, "exit");
      const before = workersByRole(server.child.pid!);
      expect([before.front.length, before.back.length]).toEqual([1, 1]);
      const api = async () => (await fetch(`${server.base}/v1/products`)).status;
      const page = async () => {
        const response = await fetch(`${server.base}/signin`);
        return { status: response.status, body: await response.text() };
      };
      expect(await api()).toBe(401);
      expect(await page()).toMatchObject({ status: 200, body: expect.stringContaining("Sign in") });

      process.kill(before.back[0]!, "SIGKILL");
      const statuses = new Set<number>();
      for (let answered = false; !answered;) {
        expect(await api()).toBe(401);
        const { status } = await page();
        statuses.add(status);
        answered = status === 200 && workersByRole(server.child.pid!).back.length === 1;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect([...statuses].every((status) => status === 502 || status === 200)).toBe(true);
      expect(workersByRole(server.child.pid!).back).not.toEqual(before.back);

      server.child.kill("SIGTERM");
      expect((await exit)[0]).toBe(0);
      expect(existsSync(path.dirname(before.socket))).toBe(false);
    }, 120_000);
  },
);
