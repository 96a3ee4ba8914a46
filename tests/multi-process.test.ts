import { spawn } from "node:child_process";
import { once } from "node:events";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { revokeApiKeyAction } from "@/app/[orgSlug]/settings/api/actions";
import { getDb } from "@/db";
import { requestLog } from "@/db/schema";
import { addMember, createOrg, form, insertKey } from "./helpers/factories";
import { actAs } from "./helpers/session";
import { startApiServer } from "./helpers/api-server";
import { startServerProcess, type ServerProcess } from "./helpers/server-process";
import { databaseUrl, onServer } from "./setup/database-server";

const inProcess = startApiServer();

describe("a revocation in the dashboard", () => {
  it("is refused on the very next API request", async () => {
    const org = await createOrg("pro");
    const owner = await addMember(org.id, "owner");
    const key = await insertKey(org.id);
    expect((await inProcess.request("/v1/invoices", { key: key.value })).status).not.toBe(401);
    actAs(owner.id);
    expect((await revokeApiKeyAction(null, form({ orgId: org.id, keyId: key.id }))).ok).toBe(true);
    const response = await inProcess.request("/v1/invoices", { key: key.value });
    expect(response.status).toBe(401);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe("api_key_revoked");
  });
});

// Several API processes share one PostgreSQL; PGlite has a single owning process by design.
describe.skipIf(!process.env.DATABASE_URL)("two API processes on one PostgreSQL", () => {
  const processes: ServerProcess[] = [];

  beforeAll(async () => {
    processes.push(...(await Promise.all([startServerProcess(), startServerProcess()])));
  }, 60_000);

  afterAll(() => {
    for (const { child } of processes) child.kill("SIGTERM");
  });

  it("share one rate limit: 200 requests split across both get exactly 60 through", async () => {
    const org = await createOrg("enterprise");
    const { value } = await insertKey(org.id);
    // The processes keep real time: a burst straddling a minute boundary would meet two windows.
    const intoMinute = Date.now() % 60_000;
    if (intoMinute > 50_000) await new Promise((resolve) => setTimeout(resolve, 60_500 - intoMinute));
    const responses = await Promise.all(
      Array.from({ length: 200 }, (_, i) => fetch(`${processes[i % 2]!.base}/v1/invoices`, { headers: { "X-API-Key": value } })),
    );
    expect(responses.filter((r) => r.status !== 429)).toHaveLength(60);
  });

  it("share one monthly quota: a trial organization's 100 calls split across both get exactly 50 through", async () => {
    const org = await createOrg("trial");
    const keys = [await insertKey(org.id), await insertKey(org.id)];
    const responses = await Promise.all(
      Array.from({ length: 100 }, (_, i) => fetch(`${processes[i % 2]!.base}/v1/invoices`, { headers: { "X-API-Key": keys[Math.floor(i / 2) % 2]!.value } })),
    );
    const refused = responses.filter((r) => r.status === 429);
    expect(responses.length - refused.length).toBe(50);
    const codes = new Set(await Promise.all(refused.map(async (r) => ((await r.json()) as { error: { code: string } }).error.code)));
    expect(codes).toEqual(new Set(["monthly_quota_exceeded"]));
  });

  it("share one key budget: 200 requests split across both on a key with a budget of 50 get exactly 50 through", async () => {
    const org = await createOrg("enterprise", { rateLimitPerMinute: 100_000 });
    const { value } = await insertKey(org.id, { budget: { limit: 50, period: "day" } });
    // A burst straddling midnight UTC would meet two periods.
    const intoDay = Date.now() % 86_400_000;
    if (intoDay > 86_390_000) await new Promise((resolve) => setTimeout(resolve, 86_400_500 - intoDay));
    const responses = await Promise.all(
      Array.from({ length: 200 }, (_, i) => fetch(`${processes[i % 2]!.base}/v1/invoices`, { headers: { "X-API-Key": value } })),
    );
    const refused = responses.filter((r) => r.status === 429);
    expect(responses.length - refused.length).toBe(50);
    const codes = new Set(await Promise.all(refused.map(async (r) => ((await r.json()) as { error: { code: string } }).error.code)));
    expect(codes).toEqual(new Set(["key_budget_exceeded"]));
  });

  it("lose no audit row of a response that reached its client when one is killed mid-load (SIGKILL)", async () => {
    const victim = await startServerProcess();
    const org = await createOrg("enterprise", { rateLimitPerMinute: 100_000 });
    const { value } = await insertKey(org.id);
    const received: string[] = [];
    let killed = false;
    const client = async () => {
      while (!killed) {
        try {
          const response = await fetch(`${victim.base}/v1/invoices`, { headers: { "X-API-Key": value } });
          received.push(response.headers.get("x-request-id")!);
          await response.arrayBuffer();
        } catch {
          return; // the connection died with the process
        }
      }
    };
    const clients = Array.from({ length: 20 }, client);
    while (received.length < 400) await new Promise((resolve) => setTimeout(resolve, 2));
    victim.child.kill("SIGKILL");
    killed = true;
    await Promise.all(clients);
    const logged = new Set((await getDb().select({ requestId: requestLog.requestId }).from(requestLog).where(eq(requestLog.orgId, org.id))).map((row) => row.requestId));
    expect(received.filter((id) => !logged.has(id))).toEqual([]);
  });

  it("honour a revocation made through one on the next request to the other", async () => {
    const org = await createOrg("pro");
    const owner = await addMember(org.id, "owner");
    const key = await insertKey(org.id);
    const [first, second] = processes;
    expect((await fetch(`${second!.base}/v1/invoices`, { headers: { "X-API-Key": key.value } })).status).not.toBe(401);
    actAs(owner.id);
    expect((await revokeApiKeyAction(null, form({ orgId: org.id, keyId: key.id }))).ok).toBe(true);
    for (const target of [first!, second!]) {
      const response = await fetch(`${target.base}/v1/invoices`, { headers: { "X-API-Key": key.value } });
      expect(response.status).toBe(401);
    }
  });
});

describe.skipIf(!process.env.DATABASE_URL)("processes started together on a new database", () => {
  it("all start: one at a time migrates it and installs the job queue's schema, the others find them done", async () => {
    const database = `fresh_${Date.now()}_${process.pid}`;
    await onServer(process.env.DATABASE_URL!, `create database "${database}"`);
    const started: ServerProcess[] = [];
    try {
      const starts = await Promise.allSettled(Array.from({ length: 3 }, () => startServerProcess("api-server.ts", { DATABASE_URL: databaseUrl(process.env.DATABASE_URL!, database) })));
      started.push(...starts.flatMap((start) => (start.status === "fulfilled" ? [start.value] : [])));
      expect(starts.filter((start) => start.status === "rejected").map((start) => String((start as PromiseRejectedResult).reason))).toEqual([]);
      for (const { base } of started) expect((await fetch(`${base}/v1/invoices`)).status).toBe(401);
    } finally {
      await Promise.all(started.map(({ stop }) => stop()));
      await onServer(process.env.DATABASE_URL!, `drop database if exists "${database}" with (force)`);
    }
  }, 90_000);
});

describe("npm run start:api", () => {
  it("refuses to start without DATABASE_URL, saying why", async () => {
    const env = { ...process.env };
    delete env.DATABASE_URL;
    const child = spawn(process.execPath, ["--conditions=react-server", "--import", "tsx", "api-server.ts"], { cwd: path.resolve(import.meta.dirname, ".."), env, stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    child.stderr!.on("data", (chunk) => (stderr += chunk));
    const [code] = await once(child, "exit");
    expect(code).toBe(1);
    expect(stderr).toContain("needs DATABASE_URL");
  });
});
