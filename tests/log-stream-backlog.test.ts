import { and, asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { activityLog, alerts, logStreams } from "@/db/schema";
import { utcMonthStart } from "@/core/time";
import { raiseQuotaAlerts } from "@/lib/alerts/raise";
import { describeAlert } from "@/lib/alerts/text";
import { deliverDueStreams, type TurnOptions } from "@/lib/log-streams/delivery";
import { createLogStream, setLogStreamPaused } from "@/lib/log-streams/streams";
import { until } from "./helpers/eventually";
import { createOrg, insertKey } from "./helpers/factories";
import { SignedEndpoint } from "./helpers/log-receivers";
import { receiverForThisFile, settled, VISIBLE_WITHIN_MS } from "./helpers/stream-receiver";
import { logRequest } from "./helpers/request-log";

// The 7-day backlog rule (docs/features/log-streams.md#the-7-day-backlog): what a stream has not
// delivered 7 days after it happened is dropped, oldest first, counted, and said in an alert;
// nothing younger is ever lost, paused or failing.

const DAY = 24 * 3600_000;
const SECRET = `whsec_${Buffer.from("log stream backlog secret, 32 b!").toString("base64")}`;
const receiver = receiverForThisFile(new SignedEndpoint(SECRET));

/** An organization with a live and a test key, and a live stream “SIEM” of `sources` to the signed endpoint. */
async function streamed(sources: ("requests" | "activity" | "alerts")[]) {
  const org = await createOrg("pro");
  const live = await insertKey(org.id, { name: "Live" });
  const test = await insertKey(org.id, { name: "Test", mode: "test" });
  const stream = await createLogStream(
    getDb(),
    org.id,
    { name: "SIEM", settings: { kind: "https", url: `${receiver.url}/audit` }, secrets: { kind: "https", signingSecret: SECRET }, sources, mode: "live" },
    null,
  );
  const request = async (keyId: string, at: Date) => (await logRequest({ orgId: org.id, apiKeyId: keyId, at })).requestId;
  return { org, live, test, stream, request };
}

/** An activity entry that happened at `at`; its event's id. */
async function activityAt(orgId: string, name: string, at: Date): Promise<string> {
  const [row] = await getDb()
    .insert(activityLog)
    .values({ orgId, actorKind: "system", action: "api_key.renamed", targetType: "api_key", targetId: "key_x", targetName: name, createdAt: at })
    .returning({ id: activityLog.id });
  return `act_${row!.id}`;
}

async function droppedEvents(streamId: string): Promise<number> {
  const [row] = await getDb().select({ dropped: logStreams.droppedEvents }).from(logStreams).where(eq(logStreams.id, streamId));
  return row!.dropped;
}

async function backlogAlerts(orgId: string) {
  return getDb()
    .select()
    .from(alerts)
    .where(and(eq(alerts.orgId, orgId), eq(alerts.kind, "log_stream_backlog_dropped")))
    .orderBy(asc(alerts.id));
}

/**
 * Turns until `done`. Activity and alerts wait for every older transaction of the PostgreSQL
 * server to end, other databases' included (the other test files'): they may take a few turns to
 * be delivered or dropped.
 */
async function deliverUntil(done: () => Promise<boolean>, options: TurnOptions = {}) {
  expect(
    await until(async () => {
      await deliverDueStreams(getDb(), options);
      return done();
    }, VISIBLE_WITHIN_MS),
  ).toBe(true);
}

const ids = () => receiver.events.map((event) => event.id as string);
const minutesBefore = (at: number, minutes: number) => new Date(at - minutes * 60_000);

// A test may wait VISIBLE_WITHIN_MS for activity and alerts, and then go on.
describe("the 7-day backlog of a log stream", { timeout: VISIBLE_WITHIN_MS + 30_000 }, () => {
  it("drops what is still undelivered 7 days after it happened, counted exactly, and delivers the rest in order", async () => {
    const { org, live, test, stream, request } = await streamed(["requests", "activity", "alerts"]);
    const now = Date.now();
    const clock = () => new Date(now);
    const expired = (minutes: number) => minutesBefore(now - 7 * DAY, minutes);
    // Past 7 days: three live requests, an activity entry and an alert; the test key's request is not this stream's.
    for (const minutes of [30, 29, 28]) await request(live.id, expired(minutes));
    await request(test.id, expired(27));
    await activityAt(org.id, "Old entry", expired(26));
    await raiseQuotaAlerts(getDb(), { orgId: org.id, month: utcMonthStart(expired(25)), quota: 10_000, thresholds: [80], at: expired(25) });
    // Younger: kept, however late.
    const kept = [await request(live.id, new Date(now - 7 * DAY + 60_000)), await request(live.id, minutesBefore(now, 90))];
    const entry = await activityAt(org.id, "Young entry", minutesBefore(now, 60));

    await deliverUntil(async () => (await droppedEvents(stream.id)) === 5 && receiver.events.length === 4, { clock });
    // The stream carries alerts: its own backlog alert, raised now, comes last.
    expect(ids()).toEqual([...kept, entry, expect.stringMatching(/^alert_\d+$/)]);
    expect(receiver.events[3]).toMatchObject({ type: "alert", data: { kind: "log_stream_backlog_dropped", stream_id: stream.id, name: "SIEM", days: 7 } });
    expect(await droppedEvents(stream.id)).toBe(5);
  });

  it("raises one alert a stream and UTC day, which counts that day's drops", async () => {
    const { org, live, stream, request } = await streamed(["requests"]);
    const now = Date.now();
    const clock = () => new Date(now);
    for (const minutes of [3, 2]) await request(live.id, minutesBefore(now - 7 * DAY, minutes));
    await deliverUntil(async () => (await droppedEvents(stream.id)) === 2, { clock });
    const [raised] = await backlogAlerts(org.id);
    expect(raised).toMatchObject({ details: { streamId: stream.id, name: "SIEM", dropped: 2, days: 7 }, apiKeyId: null });

    // Later the same day, three more: the day's alert counts them too, and no other is raised.
    for (const minutes of [3, 2, 1]) await request(live.id, minutesBefore(now - 7 * DAY, minutes));
    await deliverUntil(async () => (await droppedEvents(stream.id)) === 5, { clock });
    const after = await backlogAlerts(org.id);
    expect(after).toEqual([expect.objectContaining({ id: raised!.id, details: { streamId: stream.id, name: "SIEM", dropped: 5, days: 7 } })]);
    const dto = { id: raised!.id, kind: raised!.kind, createdAt: raised!.createdAt.toISOString(), read: false, apiKey: null, details: after[0]!.details };
    expect(describeAlert(dto, "acme")).toMatchObject({
      title: "Log stream “SIEM” dropped 5 events older than 7 days",
      href: "/acme/settings/log-streams",
      tone: "destructive",
    });
    expect(receiver.events).toEqual([]);
  });

  it("drops a paused stream's expired events without a turn and keeps the younger ones until it resumes", async () => {
    const { org, live, stream, request } = await streamed(["requests", "activity"]);
    await setLogStreamPaused(getDb(), org.id, stream.id, true);
    const now = Date.now();
    const first = await request(live.id, new Date(now - 60_000));
    const entry = await activityAt(org.id, "While paused", new Date(now - 45_000));
    const last = await request(live.id, new Date(now - 30_000));

    // Six days on, nothing is old enough; 7 days after the first request, it alone is.
    expect(await deliverDueStreams(getDb(), { clock: () => new Date(now + 6 * DAY) })).toBe(0);
    expect(await droppedEvents(stream.id)).toBe(0);
    const firstExpired = { clock: () => new Date(now + 7 * DAY - 50_000) };
    await deliverUntil(async () => (await droppedEvents(stream.id)) === 1, firstExpired);
    expect((await backlogAlerts(org.id)).map((alert) => alert.details.dropped)).toEqual([1]);

    // Resumed before the others' 7 days, once the entry is visible (so it goes in the same batch as
    // the later request, in time order): they arrive, the first does not.
    await settled(org.id);
    await setLogStreamPaused(getDb(), org.id, stream.id, false);
    await deliverUntil(async () => receiver.events.length === 2, firstExpired);
    expect(ids()).toEqual([entry, last]);
    expect(ids()).not.toContain(first);

    // Paused again and left 8 days: what came meanwhile is dropped, and the new day raises its own alert.
    await setLogStreamPaused(getDb(), org.id, stream.id, true);
    await request(live.id, new Date(now));
    await activityAt(org.id, "Paused again", new Date(now));
    await deliverUntil(async () => (await droppedEvents(stream.id)) === 3, { clock: () => new Date(now + 8 * DAY) });
    expect((await backlogAlerts(org.id)).map((alert) => alert.details.dropped)).toEqual([1, 2]);
    expect(receiver.events).toHaveLength(2);
  });

  it("drops nothing younger than 7 days, however long the destination fails", async () => {
    const { org, live, stream, request } = await streamed(["requests"]);
    const now = Date.now();
    const sent = [await request(live.id, new Date(now - 2_000)), await request(live.id, new Date(now - 1_000))];
    receiver.answerNext({ status: 500 }, 3);
    let at = new Date(now + 6 * DAY);
    for (let attempt = 1; attempt <= 3; attempt++) {
      expect(await deliverDueStreams(getDb(), { clock: () => at })).toBe(0);
      const [row] = await getDb().select().from(logStreams).where(eq(logStreams.id, stream.id));
      expect(row).toMatchObject({ failedAttempts: attempt, droppedEvents: 0 });
      at = new Date(row!.nextAttemptAt!.getTime() + 1);
    }
    // Three seconds short of the first request's 7 days: both are still delivered.
    expect(await deliverDueStreams(getDb(), { clock: () => new Date(now + 7 * DAY - 3_000) })).toBe(2);
    expect(ids()).toEqual(sent);
    expect(await droppedEvents(stream.id)).toBe(0);
    expect(await backlogAlerts(org.id)).toEqual([]);
  });

  it("never passes a younger event: an expired request logged after it waits its turn", async () => {
    const { live, stream, request } = await streamed(["requests"]);
    const now = Date.now();
    await request(live.id, new Date(now - 8 * DAY));
    // The cursor cannot skip one event: dropping the second expired request would pass the younger one before it.
    const kept = [await request(live.id, new Date(now - DAY)), await request(live.id, new Date(now - 8 * DAY))];
    expect(await deliverDueStreams(getDb(), { clock: () => new Date(now) })).toBe(2);
    expect(ids()).toEqual(kept);
    expect(await droppedEvents(stream.id)).toBe(1);
  });
});
