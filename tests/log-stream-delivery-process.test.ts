import { once } from "node:events";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { logStreams } from "@/db/schema";
import { createLogStream } from "@/lib/log-streams/streams";
import { createOrg, insertKey } from "./helpers/factories";
import { SignedEndpoint } from "./helpers/log-receivers";
import { deliveryPids, startServerProcess } from "./helpers/server-process";
import { receiverForThisFile } from "./helpers/stream-receiver";

const SECRET = `whsec_${Buffer.from("delivery process test secret, 32B").toString("base64")}`;
const receiver = receiverForThisFile(new SignedEndpoint(SECRET));

/** A process's nice value, session and autogroup nice value, from /proc. */
function scheduling(pid: number): { nice: number; session: number; autogroupNice: number | null } {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // The fields after the name, which sits in parentheses and may hold spaces.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const autogroup = existsSync(`/proc/${pid}/autogroup`) ? readFileSync(`/proc/${pid}/autogroup`, "utf8") : "";
  return { nice: Number(fields[16]), session: Number(fields[3]), autogroupNice: autogroup ? Number(/nice (-?\d+)/.exec(autogroup)![1]) : null };
}

async function streamTo(orgId: string) {
  const settings = { kind: "https" as const, url: `${receiver.url}/audit` };
  const secrets = { kind: "https" as const, signingSecret: SECRET };
  return createLogStream(getDb(), orgId, { name: "SIEM", settings, secrets, sources: ["requests"], mode: "live" }, null);
}

const gone = (pid: number) => !existsSync(`/proc/${pid}`) || readFileSync(`/proc/${pid}/stat`, "utf8").includes(") Z ");

// docs/features/log-streams.md#delivery: on PostgreSQL a server process delivers from a process of the lowest priority.
describe.skipIf(!process.env.DATABASE_URL)("a server process on PostgreSQL delivers log streams from a process of its own", () => {
  it("at the lowest CPU priority in a session of its own, every request once and in order, ending with the server", async () => {
    const org = await createOrg("pro");
    const { value } = await insertKey(org.id, { name: "Live" });
    const stream = await streamTo(org.id);
    // What the server preloads is its own (the e2e servers' session clock listens on a port): the delivery process loads none of it.
    const preloads = path.join(mkdtempSync(path.join(os.tmpdir(), "preloads-")), "pids");
    const preload = ["--import", path.resolve(import.meta.dirname, "fixtures/record-preload.mjs")];
    const server = await startServerProcess("api-server.ts", { WEBHOOK_ALLOW_PRIVATE: "true", PRELOAD_RECORD: preloads }, undefined, preload);
    let delivery = 0;
    try {
      const pid = server.child.pid!;
      await expect.poll(() => deliveryPids(pid).length, { timeout: 10_000, interval: 50 }).toBe(1);
      delivery = deliveryPids(pid)[0]!;
      await expect.poll(() => scheduling(delivery).nice, { timeout: 10_000, interval: 50 }).toBe(19);
      const { session, autogroupNice } = scheduling(delivery);
      expect(session).toBe(delivery);
      if (autogroupNice !== null) expect(autogroupNice).toBe(19);
      // The server itself keeps the default priority.
      expect(scheduling(pid).nice).toBe(0);
      expect(readFileSync(preloads, "utf8").trim().split("\n")).toEqual([String(pid)]);

      const requestIds: string[] = [];
      for (let i = 0; i < 12; i++) {
        const response = await fetch(`${server.base}/v1/products?limit=1`, { headers: { "X-API-Key": value } });
        expect(response.status).toBe(200);
        requestIds.push(response.headers.get("x-request-id")!);
      }
      await expect.poll(() => receiver.events.length, { timeout: 30_000, interval: 100 }).toBe(requestIds.length);
      expect(receiver.events.map((event) => event.id)).toEqual(requestIds);
    } finally {
      await server.stop();
    }
    expect(server.child.exitCode).toBe(0);
    expect(gone(delivery)).toBe(true);
    expect(server.output()).not.toMatch(/delivery process|Delivering log streams failed/);
    const [left] = await getDb().select({ leaseUntil: logStreams.leaseUntil }).from(logStreams).where(eq(logStreams.id, stream.id));
    expect(left!.leaseUntil).toBeNull();
  });

  it("ends when its server is killed outright, leaving no process behind", async () => {
    const server = await startServerProcess("api-server.ts");
    const pid = server.child.pid!;
    await expect.poll(() => deliveryPids(pid).length, { timeout: 10_000, interval: 50 }).toBe(1);
    const delivery = deliveryPids(pid)[0]!;
    const exited = once(server.child, "exit");
    server.child.kill("SIGKILL");
    await exited;
    await expect.poll(() => gone(delivery), { timeout: 15_000, interval: 100 }).toBe(true);
  });
});
