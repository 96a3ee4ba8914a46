import { and, eq } from "drizzle-orm";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST } from "@/app/api/secret-scanning/route";
import { getDb } from "@/db";
import { activityLog, alerts, apiKeys, organizations, webhookEndpoints } from "@/db/schema";
import { newId } from "@/core/ids";
import { hashApiKey, mintApiKey } from "@/lib/keys/format";
import { SECRET_SCANNING_REPORTS_PER_MINUTE } from "@/lib/secret-scanning/receive-report";
import { startMailWorker } from "@/lib/notifications/mail-worker";
import { newSigningSecret } from "@/lib/webhooks/signing-secret";
import { webhookCredentials } from "@/core/sealed-secret";
import { startWebhookWorker } from "@/lib/webhooks/worker";
import { jobQueue } from "@/db/job-queue";
import { startApiServer } from "./helpers/api-server";
import { eventually } from "./helpers/eventually";
import { createTeam, insertKey } from "./helpers/factories";
import { orgFingerprint } from "./helpers/fuzz-probe";
import { MailCatcher } from "./helpers/mail-catcher";
import { freshIp, github, keyPair, LEAK_URL, report, signed, startKeyServer, stopKeyServer } from "./helpers/secret-scanner";
import { receiver, stopReceivers } from "./helpers/webhook-receiver";

// Secret scanning with GitHub's protocol played by the test (tests/helpers/secret-scanner.ts).
process.env.WEBHOOK_ALLOW_PRIVATE = "true";
process.env.WEBHOOK_RETRY_DELAY_SECONDS = "1";
process.env.MAIL_RETRY_DELAY_SECONDS = "1";

const api = startApiServer();
const smtp = new MailCatcher();

async function setResponse(orgId: string, response: "revoke" | "alert") {
  await getDb().update(organizations).set({ leakedKeyResponse: response }).where(eq(organizations.id, orgId));
}

async function endpointFor(orgId: string, url: string) {
  await getDb()
    .insert(webhookEndpoints)
    .values({
      id: newId("whe"),
      orgId,
      url,
      eventTypes: ["key.leaked", "key.revoked"],
      mode: "live",
      signingSecret: webhookCredentials.seal(newSigningSecret()),
    });
}

beforeAll(async () => {
  await startKeyServer();
  await smtp.start();
  await jobQueue();
  await startMailWorker();
  await startWebhookWorker();
}, 60_000);

afterAll(async () => {
  await getDb().update(webhookEndpoints).set({ enabled: false, disabledReason: "manual" });
  await stopReceivers();
  await smtp.stop();
  await stopKeyServer();
});

describe("a signed report of a live key", () => {
  it("revokes it at once by default: the API refuses it, the history names the URL, the owners are emailed", async () => {
    const team = await createTeam("pro");
    const key = await insertKey(team.org.id, { name: "Billing worker" });
    expect((await api.request("/v1/invoices", { key: key.value })).status).toBe(200);

    const answer = await report([{ token: key.value, url: LEAK_URL }]);
    expect(answer).toEqual({ status: 200, json: [{ token_hash: hashApiKey(key.value), token_type: "invoicing_api_key", label: "true_positive" }] });

    const refused = await api.request("/v1/invoices", { key: key.value });
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("api_key_revoked");
    const [row] = await getDb().select().from(apiKeys).where(eq(apiKeys.id, key.id));
    expect(row).toMatchObject({ revokeReason: "leaked", revokedBy: null });

    const history = await getDb()
      .select()
      .from(activityLog)
      .where(and(eq(activityLog.orgId, team.org.id), eq(activityLog.targetId, key.id)));
    expect(history.map((entry) => entry.action).sort()).toEqual(["api_key.leaked", "api_key.revoked"]);
    expect(history.find((entry) => entry.action === "api_key.leaked")).toMatchObject({
      actorKind: "system",
      after: { response: "revoke", leakedAt: LEAK_URL, source: "content" },
    });
    expect(
      await getDb()
        .select()
        .from(alerts)
        .where(and(eq(alerts.orgId, team.org.id), eq(alerts.kind, "key_leaked"))),
    ).toHaveLength(1);

    const mails = await eventually(
      () => smtp.to(team.owner.email),
      (found) => found.length >= 1,
    );
    expect(mails[0]!.text).toContain(LEAK_URL);
  });

  it("in “alert only” leaves the key working; the alert and the key.leaked webhook arrive", async () => {
    const team = await createTeam("pro");
    await setResponse(team.org.id, "alert");
    const hooks = await receiver();
    await endpointFor(team.org.id, hooks.url);
    const key = await insertKey(team.org.id, { name: "Staging" });

    expect((await report([{ token: key.value, url: LEAK_URL }])).status).toBe(200);
    expect((await api.request("/v1/invoices", { key: key.value })).status).toBe(200);
    const [alert] = await getDb()
      .select()
      .from(alerts)
      .where(and(eq(alerts.orgId, team.org.id), eq(alerts.kind, "key_leaked")));
    expect(alert).toMatchObject({ apiKeyId: key.id, details: { url: LEAK_URL, response: "alert" } });
    const delivered = await eventually(
      () => Promise.resolve(hooks.received),
      (received) => received.length >= 1,
      25_000,
    );
    expect(JSON.parse(delivered[0]!.body)).toMatchObject({ type: "key.leaked", data: { key_id: key.id, url: LEAK_URL, source: "content", response: "alert" } });
    const [entry] = await getDb()
      .select()
      .from(activityLog)
      .where(and(eq(activityLog.orgId, team.org.id), eq(activityLog.action, "api_key.leaked")));
    expect(entry).toMatchObject({ actorKind: "system", after: { response: "alert", leakedAt: LEAK_URL } });
  });
});

describe("a signed report of a test key (docs/features/test-mode.md#keys)", () => {
  it("revokes it at once, as a live key: the API refuses it and the history says where it leaked", async () => {
    const team = await createTeam("pro");
    const live = await insertKey(team.org.id, { name: "Billing worker" });
    const key = await insertKey(team.org.id, { name: "CI", mode: "test" });
    expect(key.value).toMatch(/^ik_test_[0-9A-Za-z]{32}$/);

    const answer = await report([{ token: key.value, type: "invoicing_test_api_key", url: LEAK_URL }]);
    expect(answer).toEqual({ status: 200, json: [{ token_hash: hashApiKey(key.value), token_type: "invoicing_test_api_key", label: "true_positive" }] });

    const refused = await api.request("/v1/invoices", { key: key.value });
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("api_key_revoked");
    expect((await getDb().select().from(apiKeys).where(eq(apiKeys.id, key.id)))[0]).toMatchObject({ mode: "test", revokeReason: "leaked", revokedBy: null });
    const history = await getDb()
      .select()
      .from(activityLog)
      .where(and(eq(activityLog.orgId, team.org.id), eq(activityLog.targetId, key.id)));
    expect(history.map((entry) => entry.action).sort()).toEqual(["api_key.leaked", "api_key.revoked"]);
    // The organization's live key is not the leaked one.
    expect((await api.request("/v1/invoices", { key: live.value })).status).toBe(200);
  });

  it("does not take a test key's characters behind the live prefix for the key", async () => {
    const team = await createTeam("pro");
    const key = await insertKey(team.org.id, { name: "CI", mode: "test" });
    const before = await orgFingerprint(team.org.id);
    const answer = await report([{ token: `ik_${key.value.slice("ik_test_".length)}`, url: LEAK_URL }]);
    expect(answer).toMatchObject({ status: 200, json: [{ label: "false_positive" }] });
    expect(await orgFingerprint(team.org.id)).toBe(before);
  });
});

describe("reports that change nothing", () => {
  it("refuses a bad signature, an unknown key identifier, a body signed for another payload, no signature, and a malformed body", async () => {
    const team = await createTeam("pro");
    const key = await insertKey(team.org.id, { name: "Production" });
    const before = await orgFingerprint(team.org.id);
    const body = JSON.stringify([{ token: key.value, type: "invoicing_api_key", url: LEAK_URL, source: "content" }]);
    const other = keyPair();

    expect(await report(body, { signWith: other.privateKey })).toMatchObject({ status: 401, json: { error: { code: "signature_invalid" } } });
    expect(await report(body, { identifier: "made-up-identifier" })).toMatchObject({ status: 401, json: { error: { code: "signature_invalid" } } });
    expect(await report(body, { signature: signed(JSON.stringify([{ token: "ik_other", type: "x" }]), github.keys[0]!.privateKey) })).toMatchObject({
      status: 401,
    });
    expect(await report(body, { signature: "not base64 at all!" })).toMatchObject({ status: 401 });
    const unsigned = await POST(new NextRequest("http://localhost/api/secret-scanning", { method: "POST", body, headers: { "x-forwarded-for": freshIp() } }));
    expect(unsigned.status).toBe(401);
    expect(await report("{not json")).toMatchObject({ status: 400, json: { error: { code: "malformed_report" } } });
    expect(await report(JSON.stringify({ token: key.value }))).toMatchObject({ status: 400 });
    expect(await report(JSON.stringify([{ token: "" }]))).toMatchObject({ status: 400 });

    expect(await orgFingerprint(team.org.id)).toBe(before);
    expect((await api.request("/v1/invoices", { key: key.value })).status).toBe(200);
  });

  it("answers a replayed report and a token of another format without changing anything", async () => {
    const team = await createTeam("pro");
    await setResponse(team.org.id, "alert");
    const key = await insertKey(team.org.id, { name: "Nightly export" });
    const body = JSON.stringify([{ token: key.value, type: "invoicing_api_key", url: LEAK_URL, source: "content" }]);
    expect((await report(body)).status).toBe(200);
    const afterFirst = await orgFingerprint(team.org.id);

    // GitHub may send a report again (a retry, or the same key in another repository).
    const replayed = await report(body);
    expect(replayed).toEqual({ status: 200, json: [expect.objectContaining({ label: "true_positive" })] });
    expect(await report([{ token: key.value, url: "https://github.com/else/where" }])).toMatchObject({ status: 200 });
    expect(await orgFingerprint(team.org.id)).toBe(afterFirst);

    // Right shape, wrong checksum; another issuer's prefix; a well-formed key no one has.
    const mangled = `${key.value.slice(0, -1)}${key.value.endsWith("a") ? "b" : "a"}`;
    const answer = await report([
      { token: mangled },
      { token: "sk_live_4eC39HqLyjWDarjtT1zdp7dc" },
      { token: mintApiKey("live").value },
      { token: mintApiKey("test").value },
    ]);
    expect(answer.status).toBe(200);
    expect((answer.json as { label: string }[]).map((token) => token.label)).toEqual(["false_positive", "false_positive", "false_positive", "false_positive"]);
    expect(await orgFingerprint(team.org.id)).toBe(afterFirst);
  });

  it("leaves a revoked key and another organization's keys as they are", async () => {
    const team = await createTeam("pro");
    const neighbour = await createTeam("pro");
    const revoked = await insertKey(team.org.id, { name: "Old", revoked: true });
    const untouched = await insertKey(neighbour.org.id, { name: "Neighbour's" });
    const [before, neighbourBefore] = [await orgFingerprint(team.org.id), await orgFingerprint(neighbour.org.id)];
    expect(await report([{ token: revoked.value, url: LEAK_URL }])).toMatchObject({ status: 200, json: [{ label: "true_positive" }] });
    expect(await orgFingerprint(team.org.id)).toBe(before);
    expect(await orgFingerprint(neighbour.org.id)).toBe(neighbourBefore);
    expect((await api.request("/v1/invoices", { key: untouched.value })).status).toBe(200);
  });
});

describe("the endpoint's bounds", () => {
  it("answers a batch of 100 tokens, and refuses a body over the bound with 413", async () => {
    const team = await createTeam("enterprise");
    const keys = await Promise.all(Array.from({ length: 3 }, (_, i) => insertKey(team.org.id, { name: `Batch ${i}` })));
    const tokens = [...keys.map((key) => ({ token: key.value })), ...Array.from({ length: 97 }, () => ({ token: mintApiKey("live").value }))];
    const answer = await report(tokens);
    expect(answer.status).toBe(200);
    const labels = answer.json as { label: string }[];
    expect(labels).toHaveLength(100);
    expect(labels.filter((token) => token.label === "true_positive")).toHaveLength(3);
    const revoked = await getDb().select({ revokedAt: apiKeys.revokedAt }).from(apiKeys).where(eq(apiKeys.orgId, team.org.id));
    expect(revoked.every((row) => row.revokedAt !== null)).toBe(true);

    expect(await report(JSON.stringify([{ token: "x".repeat(2 * 1024 * 1024), type: "t" }]))).toMatchObject({ status: 413 });
  });

  it("rate-limits reports per address, counted atomically under concurrency", async () => {
    const ip = freshIp();
    const outcomes = await Promise.all(Array.from({ length: SECRET_SCANNING_REPORTS_PER_MINUTE + 20 }, () => report("[]", { ip, signature: "AAAA" })));
    expect(outcomes.filter((outcome) => outcome.status === 429)).toHaveLength(20);
    expect(outcomes.filter((outcome) => outcome.status === 401)).toHaveLength(SECRET_SCANNING_REPORTS_PER_MINUTE);
  });
});
