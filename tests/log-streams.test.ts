import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { insertActivity } from "@/db/queries/activity";
import { logStreams } from "@/db/schema";
import { utcMonthStart } from "@/core/time";
import { raiseQuotaAlerts } from "@/lib/alerts/raise";
import { claimDueStreams } from "@/db/queries/log-streams";
import { deliverDueStreams } from "@/lib/log-streams/delivery";
import { createLogStream, setLogStreamPaused } from "@/lib/log-streams/streams";
import { startApiServer } from "./helpers/api-server";
import { createOrg, createUser, insertKey } from "./helpers/factories";
import { OtlpCollector, SignedEndpoint, startReceiver } from "./helpers/log-receivers";
import { receiverForThisFile, settled, VISIBLE_WITHIN_MS } from "./helpers/stream-receiver";

const api = startApiServer();
const SECRET = `whsec_${Buffer.from("log streams test secret, 32 bytes!").toString("base64")}`;
const receiver = receiverForThisFile(new SignedEndpoint(SECRET));

/** An organization with a live and a test key, and then a stream of `sources` to the signed endpoint. */
async function streamed(
  sources: ("requests" | "activity" | "alerts")[] = ["requests", "activity", "alerts"],
  before?: (orgId: string, key: string) => Promise<unknown>,
) {
  const org = await createOrg("pro");
  const live = await insertKey(org.id, { name: "Live" });
  const test = await insertKey(org.id, { name: "Test", mode: "test" });
  if (before) {
    await before(org.id, live.value);
    await settled(org.id);
  }
  const settings = { kind: "https" as const, url: `${receiver.url}/audit` };
  const stream = await createLogStream(
    getDb(),
    org.id,
    { name: "SIEM", settings, secrets: { kind: "https", signingSecret: SECRET }, sources, mode: "live" },
    null,
  );
  return { org, live, test, stream };
}

const call = (key: string, path: string) => api.request(path, { key }).then((response) => response.headers.get("x-request-id")!);

async function activityEntry(orgId: string, name: string) {
  const user = await createUser("Ada Admin");
  await insertActivity(getDb(), orgId, { kind: "user", userId: user.id, ip: "203.0.113.9", userAgent: "vitest" }, [
    { action: "api_key.renamed", target: { type: "api_key", id: "key_x", name }, before: { name: "old" }, after: { name } },
  ]);
}

/** Turns until the streams have nothing left: what the servers' 2-second task does. */
async function deliverAll(options: Parameters<typeof deliverDueStreams>[1] = {}) {
  let total = 0;
  for (let turn = 0; turn < 20; turn++) {
    const delivered = await deliverDueStreams(getDb(), options);
    total += delivered;
    if (delivered === 0) return total;
  }
  throw new Error("The streams kept delivering for 20 turns");
}

/**
 * Turns until `count` events were delivered. Activity and alerts wait for every older transaction
 * of the PostgreSQL server to end, other databases' included (the other test files'), so they may
 * take a few turns to become visible.
 */
async function deliverAtLeast(count: number) {
  const deadline = Date.now() + VISIBLE_WITHIN_MS;
  let total = 0;
  while (total < count) {
    if (Date.now() > deadline) throw new Error(`${total} of ${count} events delivered in ${VISIBLE_WITHIN_MS / 1000} s`);
    total += await deliverDueStreams(getDb());
    if (total < count) await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return total;
}

const ids = () => receiver.events.map((event) => event.id as string);

// A test may wait VISIBLE_WITHIN_MS for activity and alerts, and then go on.
describe("log stream delivery", { timeout: VISIBLE_WITHIN_MS + 30_000 }, () => {
  it("delivers the live requests, activity and alerts from its creation on, once, in order, with the audit log's fields", async () => {
    // A request and an activity entry from before the stream existed: not in it.
    const { org, live, test } = await streamed(undefined, async (orgId, key) => {
      await call(key, "/v1/customers");
      await activityEntry(orgId, "Before");
    });
    // A second stream, of the test keys' requests.
    const stream = await createLogStream(
      getDb(),
      org.id,
      {
        name: "Second",
        settings: { kind: "https", url: `${receiver.url}/b` },
        secrets: { kind: "https", signingSecret: SECRET },
        sources: ["requests"],
        mode: "test",
      },
      null,
    );
    const first = await call(live.value, "/v1/customers?limit=2");
    await activityEntry(org.id, "Renamed key");
    const refused = await call(live.value, "/v1/nope");
    const testCall = await call(test.value, "/v1/products");
    await raiseQuotaAlerts(getDb(), { orgId: org.id, month: utcMonthStart(new Date()), quota: 10_000, thresholds: [80], at: new Date() });
    // The sources are merged by time within a turn: the activity entry and the alert must be visible to it (another file's transaction may hold them back).
    await settled(org.id);
    expect(await deliverAtLeast(5)).toBe(5);

    const byStream = (suffix: string) =>
      receiver.requests.filter((request) => request.path === suffix).flatMap((request) => JSON.parse(request.body).data.events);
    const main = byStream("/audit");
    expect(main.map((event: { id: string }) => event.id)).toEqual([first, expect.stringMatching(/^act_\d+$/), refused, expect.stringMatching(/^alert_\d+$/)]);
    expect(main[0]).toMatchObject({
      type: "request",
      organization_id: org.id,
      livemode: true,
      data: {
        request_id: first,
        api_key_id: live.id,
        key_name: "Live",
        method: "GET",
        path: "/v1/customers?limit=2",
        endpoint: "GET /v1/customers",
        status: 200,
      },
    });
    expect(main[1]).toMatchObject({
      type: "activity",
      livemode: null,
      data: { action: "api_key.renamed", target_name: "Renamed key", actor_email: expect.any(String), ip: "203.0.113.9" },
    });
    expect(main[2]).toMatchObject({ data: { status: 404, error_code: "route_not_found", endpoint: "GET (unmatched)" } });
    expect(main[3]).toMatchObject({ type: "alert", data: { kind: "quota_threshold", threshold: 80, quota: 10_000, key_id: null } });
    // The test stream carries the test key's request alone.
    expect(byStream("/b").map((event: { id: string }) => event.id)).toEqual([testCall]);
    expect(stream.id).toMatch(/^ls_/);

    // Nothing new: nothing sent again.
    receiver.requests.length = 0;
    expect(await deliverAll()).toBe(0);
    expect(receiver.requests).toHaveLength(0);
  });

  it("loses nothing while the destination fails and then does not answer, and says so on the stream", async () => {
    const { org, live, stream } = await streamed(["requests"]);
    let now = new Date();
    const clock = () => now;
    const sent = [await call(live.value, "/v1/customers")];
    receiver.answerNext({ status: 500 }, 2).answerNext("hang");
    for (let attempt = 1; attempt <= 3; attempt++) {
      sent.push(await call(live.value, `/v1/customers?limit=${attempt}`));
      expect(await deliverAll({ clock, batchTimeoutMs: 300 })).toBe(0);
      const [row] = await getDb().select().from(logStreams).where(eq(logStreams.id, stream.id));
      expect(row).toMatchObject({ failedAttempts: attempt, failingSince: expect.any(Date), deliveredAt: null });
      expect(row!.lastError).toMatch(attempt < 3 ? /500/ : /before it answered|within 0\.3 s/);
      // Not due again before its backoff.
      expect(await deliverDueStreams(getDb(), { clock })).toBe(0);
      now = new Date(row!.nextAttemptAt!.getTime() + 1);
    }
    expect(await deliverAll({ clock })).toBe(sent.length);
    expect(ids()).toEqual(sent);
    const [row] = await getDb().select().from(logStreams).where(eq(logStreams.id, stream.id));
    // The last error stays on the page, dated, after the stream recovered.
    expect(row).toMatchObject({ failedAttempts: 0, failingSince: null, deliveredAt: expect.any(Date), lastError: expect.any(String) });
    expect(org.id).toBe(row!.orgId);
  });

  it("keeps a paused stream's place and catches up when it resumes", async () => {
    const { org, live, stream } = await streamed(["requests", "activity"]);
    await setLogStreamPaused(getDb(), org.id, stream.id, true);
    const sent = [];
    for (let index = 0; index < 5; index++) sent.push(await call(live.value, `/v1/products?limit=${index + 1}`));
    await activityEntry(org.id, "While paused");
    expect(await deliverAll()).toBe(0);
    expect(receiver.requests).toHaveLength(0);
    await setLogStreamPaused(getDb(), org.id, stream.id, false);
    expect(await deliverAtLeast(6)).toBe(6);
    expect(ids()).toEqual([...sent, expect.stringMatching(/^act_/)]);
  });

  // Two transactions at once need PostgreSQL: the embedded database runs one at a time.
  it.skipIf(!process.env.DATABASE_URL)("never skips an activity entry whose transaction commits after a later one's", async () => {
    const { org } = await streamed(["activity"]);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let written!: () => void;
    const firstWritten = new Promise<void>((resolve) => (written = resolve));
    const slow = getDb().transaction(async (tx) => {
      await insertActivity(tx, org.id, { kind: "system" }, [{ action: "api_key.expired", target: { type: "api_key", id: "key_first", name: "First" } }]);
      written();
      await held;
    });
    await firstWritten;
    await activityEntry(org.id, "Second");
    // The second entry is committed, the first not yet: delivering the second now would pass the first for good.
    expect(await deliverAll()).toBe(0);
    release();
    await slow;
    expect(await deliverAtLeast(2)).toBe(2);
    expect(receiver.events.map((event) => event.data.target_name)).toEqual(["First", "Second"]);
  });

  it("waits the longest backoff after a refusal retrying cannot help, and moves on past a batch taken but for some records", async () => {
    const { live, stream } = await streamed(["requests"]);
    receiver.answerNext({ status: 401, body: { error: "invalid signature" } });
    await call(live.value, "/v1/customers");
    const at = new Date();
    expect(await deliverAll({ clock: () => at })).toBe(0);
    const [refused] = await getDb().select().from(logStreams).where(eq(logStreams.id, stream.id));
    expect(refused!.nextAttemptAt!.getTime() - at.getTime()).toBe(5 * 60_000);

    const collector = await startReceiver(new OtlpCollector());
    try {
      const org = await createOrg("pro");
      const key = await insertKey(org.id);
      const otlp = await createLogStream(
        getDb(),
        org.id,
        { name: "Collector", settings: { kind: "otlp", endpoint: collector.url }, secrets: { kind: "otlp", headers: {} }, sources: ["requests"], mode: "live" },
        null,
      );
      collector.answerNext({ status: 200, body: { partialSuccess: { rejectedLogRecords: "1", errorMessage: "too large" } } });
      await call(key.value, "/v1/customers");
      expect(await deliverAll()).toBe(1);
      await call(key.value, "/v1/products");
      expect(await deliverAll()).toBe(1);
      // The second request alone went the second time: the first was not sent again.
      expect(collector.requests).toHaveLength(2);
      const [row] = await getDb().select().from(logStreams).where(eq(logStreams.id, otlp.id));
      expect(row).toMatchObject({ failedAttempts: 0, lastError: "The collector rejected 1 of 1 log records: too large." });
    } finally {
      await collector.stop();
    }
  });

  it("gives a stream's turn to one process at a time, and back when its lease ends", async () => {
    const { stream } = await streamed(["requests"]);
    const now = new Date();
    const lease = new Date(now.getTime() + 60_000);
    const [first, second] = await Promise.all([claimDueStreams(getDb(), now, lease), claimDueStreams(getDb(), now, lease)]);
    expect([...first, ...second].map((taken) => taken.id)).toEqual([stream.id]);
    expect(await claimDueStreams(getDb(), new Date(lease.getTime() - 1), lease)).toEqual([]);
    // A process that died mid-turn: the stream is taken again once its lease has ended.
    expect((await claimDueStreams(getDb(), lease, new Date(lease.getTime() + 60_000))).map((taken) => taken.id)).toEqual([stream.id]);
  });
});
