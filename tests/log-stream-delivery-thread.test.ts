import { readdirSync, readFileSync } from "node:fs";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { logStreams } from "@/db/schema";
import { createLogStream } from "@/lib/log-streams/streams";
import { createOrg, insertKey } from "./helpers/factories";
import { SignedEndpoint } from "./helpers/log-receivers";
import { startServerProcess } from "./helpers/server-process";
import { receiverForThisFile } from "./helpers/stream-receiver";

const SECRET = `whsec_${Buffer.from("delivery thread test secret, 32 B").toString("base64")}`;
const receiver = receiverForThisFile(new SignedEndpoint(SECRET));

/** The nice value of each thread of process `pid` (the 19th field of /proc/<pid>/task/<tid>/stat), by thread name. */
function threadNiceness(pid: number): { name: string; nice: number }[] {
  return readdirSync(`/proc/${pid}/task`).map((tid) => {
    const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
    // The name sits in parentheses and may hold spaces; the fields after it are space-separated.
    const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return { name, nice: Number(fields[16]) };
  });
}

// docs/features/log-streams.md#delivery: on PostgreSQL a server process delivers from a thread of the lowest priority.
describe.skipIf(!process.env.DATABASE_URL)("a server process on PostgreSQL delivers log streams from a thread of its own", () => {
  it("at the lowest CPU priority, every request once and in order, and the thread stops with the process", async () => {
    const org = await createOrg("pro");
    const { value } = await insertKey(org.id, { name: "Live" });
    const stream = await createLogStream(
      getDb(),
      org.id,
      {
        name: "SIEM",
        settings: { kind: "https", url: `${receiver.url}/audit` },
        secrets: { kind: "https", signingSecret: SECRET },
        sources: ["requests"],
        mode: "live",
      },
      null,
    );
    const server = await startServerProcess("api-server.ts", { WEBHOOK_ALLOW_PRIVATE: "true" });
    try {
      const pid = server.child.pid!;
      // The main thread keeps the default priority; one thread (the delivery's, once it has started) runs at 19, the lowest.
      await expect.poll(() => threadNiceness(pid).filter((thread) => thread.nice === 19).length, { timeout: 10_000, interval: 50 }).toBe(1);
      expect(threadNiceness(pid)[0]).toMatchObject({ nice: 0 });

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
    expect(server.output()).not.toMatch(/delivery thread|Delivering log streams failed/);
    const [left] = await getDb().select({ leaseUntil: logStreams.leaseUntil }).from(logStreams).where(eq(logStreams.id, stream.id));
    expect(left!.leaseUntil).toBeNull();
  });
});
