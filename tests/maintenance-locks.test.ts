import { eq, sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { requestRollupPending } from "@/db/schema";
import { exclusiveTask } from "@/servers/maintenance";
import { createOrg, insertKey } from "./helpers/factories";
import { until } from "./helpers/eventually";
import { startServerProcess, type ServerProcess } from "./helpers/server-process";

// servers/maintenance.ts: a background task holds a connection of the pool for its lock while its
// work takes another, so this process runs one locked task at a time and a server needs a pool of 2.

describe("the locked background tasks of a process", () => {
  it("run one after another: a task ticking while another runs waits for it", async () => {
    const order: string[] = [];
    let release = () => {};
    let started = () => {};
    const begun = new Promise<void>((resolve) => (started = resolve));
    const first = exclusiveTask(727_309_011, async () => {
      order.push("first started");
      started();
      await new Promise<void>((resolve) => (release = resolve));
      order.push("first ended");
    });
    const second = exclusiveTask(727_309_012, async () => void order.push("second ran"));
    const firstRun = first();
    await begun;
    const secondRun = second();
    // Another tick of the first is skipped as before; the second has not started.
    expect(await first()).toBe("skipped");
    expect(order).toEqual(["first started"]);
    release();
    expect(await Promise.all([firstRun, secondRun])).toEqual(["ran", "ran"]);
    expect(order).toEqual(["first started", "first ended", "second ran"]);
  });
});

describe.skipIf(!process.env.DATABASE_URL)("a server's pool", () => {
  let server: ServerProcess | undefined;
  afterAll(() => server?.stop());

  it("of 3 connections: starts, folds its requests into the rollups beside the locked tasks, and goes on answering", async () => {
    server = await startServerProcess("api-server.ts", { DATABASE_POOL_SIZE: "3" });
    const org = await createOrg("pro");
    const key = await insertKey(org.id);
    const call = () => fetch(`${server!.base}/v1/products`, { headers: { "X-API-Key": key.value }, signal: AbortSignal.timeout(10_000) });
    expect((await call()).status).toBe(200);
    // The fold runs every second, on a connection beside those a locked task holds for its lock and its work.
    const pending = async () =>
      (
        await getDb()
          .select({ n: sql<number>`count(*)::int` })
          .from(requestRollupPending)
          .where(eq(requestRollupPending.orgId, org.id))
      )[0]!.n;
    expect(await until(async () => (await pending()) === 0, 15_000)).toBe(true);
    expect((await call()).status).toBe(200);
  });

  it("of 1 connection: refused at the start, saying why", async () => {
    await expect(startServerProcess("api-server.ts", { DATABASE_POOL_SIZE: "1" })).rejects.toThrow(
      /DATABASE_POOL_SIZE must be a whole number of connections, at least 2/,
    );
  });
});
