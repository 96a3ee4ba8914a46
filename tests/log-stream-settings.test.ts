import { and, eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import {
  createLogStreamAction,
  deleteLogStreamAction,
  sendLogStreamTestEventAction,
  setLogStreamPausedAction,
} from "@/app/[orgSlug]/settings/log-streams/actions";
import { getDb } from "@/db";
import { activityLog, logStreams } from "@/db/schema";
import { deliverDueStreams } from "@/lib/log-streams/delivery";
import { logStreamsOverview } from "@/lib/log-streams/overview";
import { createTeam, form, insertKey } from "./helpers/factories";
import { DatadogIntake } from "./helpers/log-receivers";
import { logRequest } from "./helpers/request-log";
import { receiverForThisFile } from "./helpers/stream-receiver";
import { actAs } from "./helpers/session";

// The log streams page's changes, called as the dashboard calls them (docs/features/log-streams.md#the-page),
// against a local Datadog intake. Loopback addresses pass the SSRF guard only where private addresses are allowed.
const API_KEY = "0123456789abcdef0123456789abcdef";
const intake = receiverForThisFile(new DatadogIntake(API_KEY));
let team: Awaited<ReturnType<typeof createTeam>>;

beforeEach(async () => {
  // One test takes the permission away to see the guard refuse.
  process.env.WEBHOOK_ALLOW_PRIVATE = "true";
  team = await createTeam("pro");
  actAs(team.admin.id);
});

const datadog = (values: Record<string, string> = {}) => ({
  orgId: team.org.id,
  name: "Datadog audit trail",
  kind: "datadog",
  site: "datadoghq.eu",
  intakeUrl: `${intake.url}/api/v2/logs`,
  apiKey: API_KEY,
  sources: "requests,activity,alerts",
  mode: "live",
  ...values,
});

async function addStream(values: Record<string, string> = {}): Promise<string> {
  const result = await createLogStreamAction(null, form(datadog(values)));
  if (!result.ok) throw new Error(`${result.error} ${JSON.stringify(result.fieldErrors)}`);
  return result.data.id;
}

const entriesOf = (action: string) =>
  getDb()
    .select()
    .from(activityLog)
    .where(and(eq(activityLog.orgId, team.org.id), eq(activityLog.action, action as never)));

describe("adding a stream", () => {
  it("seals the credential, shows only its hint, and writes the history without it", async () => {
    const id = await addStream();
    const [row] = await getDb().select().from(logStreams).where(eq(logStreams.id, id));
    expect(row!.sealedSecrets).not.toContain(API_KEY);
    const [shown] = await logStreamsOverview(team.org.id);
    expect(shown).toMatchObject({ id, name: "Datadog audit trail", kind: "datadog", secretHint: "…cdef", sources: ["requests", "activity", "alerts"] });
    expect(shown!.destination).toBe(`${intake.url}/api/v2/logs`);
    expect(JSON.stringify(shown)).not.toContain(API_KEY);
    const [entry] = await entriesOf("log_stream.created");
    expect(entry).toMatchObject({ actorUserId: team.admin.id, targetType: "log_stream", targetId: id, targetName: "Datadog audit trail" });
    expect(entry!.after).toMatchObject({ destination: "datadog", sources: "requests, activity, alerts", mode: "live" });
    expect(JSON.stringify(entry)).not.toContain(API_KEY);
  });

  it("refuses bad input field by field and changes nothing", async () => {
    const result = await createLogStreamAction(null, form(datadog({ name: " ", apiKey: "not-a-key", sources: "", site: "datadoghq.mars" })));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(Object.keys(result.fieldErrors ?? {}).sort()).toEqual(["apiKey", "name", "site", "sources"]);
    expect(await logStreamsOverview(team.org.id)).toEqual([]);
  });

  it("refuses a destination on a private address unless private addresses are allowed, on the field that named it", async () => {
    delete process.env.WEBHOOK_ALLOW_PRIVATE;
    const result = await createLogStreamAction(null, form(datadog()));
    expect(result).toMatchObject({ ok: false, fieldErrors: { intakeUrl: [expect.stringContaining("private, loopback or reserved")] } });
    expect(await logStreamsOverview(team.org.id)).toEqual([]);
  });

  it("allows at most 3 streams, even when added at once", async () => {
    const results = await Promise.all([1, 2, 3, 4].map((n) => createLogStreamAction(null, form(datadog({ name: `Stream ${n}` })))));
    expect(results.filter((result) => result.ok)).toHaveLength(3);
    expect(results.find((result) => !result.ok)).toMatchObject({ error: expect.stringContaining("at most 3 log streams") });
    expect(await logStreamsOverview(team.org.id)).toHaveLength(3);
  });
});

describe("a stream's controls", () => {
  it("sends a test event at once, outside the stream's cursors, and says whether the destination took it", async () => {
    const id = await addStream();
    const sent = await sendLogStreamTestEventAction(null, { orgId: team.org.id, streamId: id });
    expect(sent).toMatchObject({ ok: true, data: { delivered: true } });
    expect(intake.events).toHaveLength(1);
    expect(intake.events[0]).toMatchObject({ type: "test", message: expect.stringContaining("Test event"), data: { stream_id: id } });
    expect(await entriesOf("log_stream.test_sent")).toHaveLength(1);

    intake.answerNext({ status: 403, body: { errors: ["Forbidden"] } });
    const refused = await sendLogStreamTestEventAction(null, { orgId: team.org.id, streamId: id });
    expect(refused).toMatchObject({ ok: false, error: expect.stringMatching(/^The test event was not delivered: Datadog refused the API key/) });
  });

  it("pauses: events wait and the page shows how far behind; resumed, it catches up in order", async () => {
    const id = await addStream({ sources: "requests" });
    const key = await insertKey(team.org.id, { name: "Billing" });
    expect(await setLogStreamPausedAction(null, { orgId: team.org.id, streamId: id, paused: "true" })).toMatchObject({ ok: true, data: { paused: true } });
    const at = new Date(Date.now() - 5 * 60_000);
    for (let i = 0; i < 3; i++) await logRequest({ orgId: team.org.id, apiKeyId: key.id, at: new Date(at.getTime() + i * 1000), path: `/v1/customers/${i}` });
    await deliverDueStreams(getDb());
    expect(intake.events).toHaveLength(0);
    const [paused] = await logStreamsOverview(team.org.id);
    expect(paused).toMatchObject({ state: "paused", lag: { waiting: 3 } });
    expect(paused!.lag.oldestAt?.getTime()).toBe(at.getTime());

    expect(await setLogStreamPausedAction(null, { orgId: team.org.id, streamId: id, paused: "true" })).toMatchObject({
      ok: false,
      error: "This stream is already paused.",
    });
    expect(await setLogStreamPausedAction(null, { orgId: team.org.id, streamId: id, paused: "false" })).toMatchObject({ ok: true });
    await deliverDueStreams(getDb());
    expect(intake.events.map((event) => (event.data as { path: string }).path)).toEqual(["/v1/customers/0", "/v1/customers/1", "/v1/customers/2"]);
    const [caughtUp] = await logStreamsOverview(team.org.id);
    expect(caughtUp).toMatchObject({ state: "delivering", lag: { waiting: 0, oldestAt: null } });
    expect(caughtUp!.deliveredAt).not.toBeNull();
    expect((await entriesOf("log_stream.paused")).length).toBe(1);
    expect((await entriesOf("log_stream.resumed")).length).toBe(1);
  });

  it("shows a failing stream's last error and attempts", async () => {
    const id = await addStream({ sources: "requests" });
    const key = await insertKey(team.org.id, { name: "Billing" });
    await logRequest({ orgId: team.org.id, apiKeyId: key.id, at: new Date() });
    intake.answerNext({ status: 500 });
    await deliverDueStreams(getDb());
    const [failing] = await logStreamsOverview(team.org.id);
    expect(failing).toMatchObject({ id, state: "failing", failedAttempts: 1, lastError: expect.stringContaining("500"), lag: { waiting: 1 } });
    expect(failing!.nextAttemptAt!.getTime()).toBeGreaterThan(Date.now());
  });

  it("deletes a stream and its credentials, keeping the deletion in the history", async () => {
    const id = await addStream();
    expect(await deleteLogStreamAction(null, { orgId: team.org.id, streamId: id })).toMatchObject({ ok: true });
    expect(await getDb().select().from(logStreams).where(eq(logStreams.id, id))).toEqual([]);
    expect(await entriesOf("log_stream.deleted")).toHaveLength(1);
    expect(await deleteLogStreamAction(null, { orgId: team.org.id, streamId: id })).toMatchObject({ ok: false, error: "This log stream was not found." });
  });

  it("never reaches another organization's stream", async () => {
    const id = await addStream();
    const other = await createTeam("pro");
    actAs(other.owner.id);
    for (const result of [
      await sendLogStreamTestEventAction(null, { orgId: other.org.id, streamId: id }),
      await setLogStreamPausedAction(null, { orgId: other.org.id, streamId: id, paused: "true" }),
      await deleteLogStreamAction(null, { orgId: other.org.id, streamId: id }),
    ])
      expect(result).toMatchObject({ ok: false, error: "This log stream was not found." });
    expect(intake.requests).toHaveLength(0);
    const [row] = await getDb().select().from(logStreams).where(eq(logStreams.id, id));
    expect(row!.pausedAt).toBeNull();
  });
});

describe("who may", () => {
  it.each(["member", "guest"] as const)("a %s can neither add, test, pause nor delete a stream", async (role) => {
    const id = await addStream();
    actAs(team[role].id);
    const refusals = [
      await createLogStreamAction(null, form(datadog({ name: "Mine" }))),
      await sendLogStreamTestEventAction(null, { orgId: team.org.id, streamId: id }),
      await setLogStreamPausedAction(null, { orgId: team.org.id, streamId: id, paused: "true" }),
      await deleteLogStreamAction(null, { orgId: team.org.id, streamId: id }),
    ];
    for (const result of refusals) expect(result).toMatchObject({ ok: false, error: "Only owners and admins can see and change the log streams." });
    expect(intake.requests).toHaveLength(0);
    expect(await logStreamsOverview(team.org.id)).toMatchObject([{ id, state: "delivering" }]);
  });
});
