import { and, eq, inArray, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi, type MockInstance } from "vitest";
import { log } from "@/core/log";
import { getDb } from "@/db";
import { rowsOf } from "@/db/rows";
import { activityLog, alerts, apiKeys } from "@/db/schema";
import { hashApiKey, mintApiKey } from "@/lib/keys/format";
import { createTeam, insertKey } from "./helpers/factories";
import { LEAK_URL, report, startKeyServer, stopKeyServer } from "./helpers/secret-scanner";

// Secret scanning and the input rules for a signed report's every field: what cannot be
// stored of where a key leaked never keeps the key live, and one token never stops the others.

beforeAll(startKeyServer);
afterAll(stopKeyServer);
afterEach(() => vi.restoreAllMocks());

/** Runs each statement on its own: PostgreSQL's extended protocol takes one at a time. */
async function run(...statements: string[]) {
  for (const statement of statements) await getDb().execute(sql.raw(statement));
}

async function keyRow(id: string) {
  const [row] = await getDb().select({ revokedAt: apiKeys.revokedAt, revokeReason: apiKeys.revokeReason }).from(apiKeys).where(eq(apiKeys.id, id));
  return row!;
}

async function leakEntries(orgId: string) {
  return getDb()
    .select({ action: activityLog.action, targetId: activityLog.targetId, after: activityLog.after })
    .from(activityLog)
    .where(and(eq(activityLog.orgId, orgId), inArray(activityLog.action, ["api_key.leaked", "api_key.revoked"])));
}

describe("text a report carries that the database cannot hold", () => {
  it("revokes a key reported at a URL with a NUL, and keeps the URL with the NUL replaced", async () => {
    const team = await createTeam("pro");
    const key = await insertKey(team.org.id, { name: "NUL in the URL" });
    const answer = await report([{ token: key.value, url: `${LEAK_URL}\u0000.bak` }]);
    expect(answer).toEqual({ status: 200, json: [{ token_hash: hashApiKey(key.value), token_type: "invoicing_api_key", label: "true_positive" }] });
    expect(await keyRow(key.id)).toMatchObject({ revokeReason: "leaked", revokedAt: expect.any(Date) });
    const leaked = (await leakEntries(team.org.id)).find((entry) => entry.action === "api_key.leaked");
    expect(leaked?.after).toMatchObject({ leakedAt: `${LEAK_URL}\uFFFD.bak`, source: "content" });
  });

  it("revokes a key reported from a source with a lone surrogate, and every other token of the batch too", async () => {
    const team = await createTeam("pro");
    const [first, second] = [await insertKey(team.org.id, { name: "Surrogate" }), await insertKey(team.org.id, { name: "After it" })];
    // JSON.stringify writes the lone surrogate as the escape \ud800, which JSON.parse turns back into it.
    const answer = await report([
      { token: first.value, url: LEAK_URL, source: "content\ud800", type: "invoicing_api_key\udc00" },
      { token: `ik_\u0000${mintApiKey("live").value.slice(4)}` },
      { token: second.value, url: LEAK_URL },
    ]);
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual([
      { token_hash: hashApiKey(first.value), token_type: "invoicing_api_key\uFFFD", label: "true_positive" },
      expect.objectContaining({ label: "false_positive" }),
      expect.objectContaining({ token_hash: hashApiKey(second.value), label: "true_positive" }),
    ]);
    expect(await keyRow(first.id)).toMatchObject({ revokeReason: "leaked" });
    expect(await keyRow(second.id)).toMatchObject({ revokeReason: "leaked" });
    const leaked = (await leakEntries(team.org.id)).find((entry) => entry.action === "api_key.leaked" && entry.targetId === first.id);
    expect(leaked?.after).toMatchObject({ leakedAt: LEAK_URL, source: "content\uFFFD" });
  });

  it("keeps the first 2,048 characters of a longer URL and acts on the key", async () => {
    const team = await createTeam("pro");
    const key = await insertKey(team.org.id, { name: "Long URL" });
    expect((await report([{ token: key.value, url: `${LEAK_URL}?${"a".repeat(5000)}` }])).status).toBe(200);
    expect(await keyRow(key.id)).toMatchObject({ revokeReason: "leaked" });
    const [alert] = await getDb().select({ details: alerts.details }).from(alerts).where(eq(alerts.apiKeyId, key.id));
    const url = (alert!.details as { url: string }).url;
    expect(url).toHaveLength(2048);
    expect(url.startsWith(`${LEAK_URL}?aaa`) && url.endsWith("a…")).toBe(true);
  });
});

describe("a batch", () => {
  it("acts on the next token when one token's handling fails, logs the failure with its cause, and asks for the report again", async () => {
    const team = await createTeam("pro");
    const [failing, next] = [await insertKey(team.org.id, { name: "Fails" }), await insertKey(team.org.id, { name: "Next" })];
    // A fault in the database itself for the first key only: its alert cannot be written.
    await run(
      `create function planted_alert_failure() returns trigger language plpgsql as $$
       begin raise exception 'planted failure for %', new.api_key_id; end $$`,
      `create trigger planted_alert_failure before insert on alerts for each row
       when (new.api_key_id = '${failing.id}') execute function planted_alert_failure()`,
    );
    const logged = vi.spyOn(log, "error").mockImplementation(() => {}) as unknown as MockInstance<
      (fields: { err: Error; keyId: string; orgId: string }, message: string) => void
    >;
    try {
      const answer = await report([
        { token: failing.value, url: LEAK_URL },
        { token: next.value, url: LEAK_URL },
      ]);
      // An error, so the scanner sends the report again: a 200 would leave the failed key live.
      expect(answer).toEqual({
        status: 503,
        json: { error: { code: "report_not_acted_on", message: "1 reported key(s) could not be acted on. Send the report again." } },
      });
    } finally {
      await run("drop trigger planted_alert_failure on alerts", "drop function planted_alert_failure()");
    }
    expect(await keyRow(next.id)).toMatchObject({ revokeReason: "leaked" });
    expect(await keyRow(failing.id)).toMatchObject({ revokedAt: null });
    expect((await leakEntries(team.org.id)).map((entry) => entry.targetId).sort()).toEqual([next.id, next.id]);

    const [fields, message] = logged.mock.calls.find(([logged]) => logged.keyId === failing.id) ?? [];
    expect(fields?.orgId).toBe(team.org.id);
    expect(message).toContain("Acting on a leaked key failed");
    const error = fields!.err as Error & { cause?: Error };
    expect(String(error.message) + String(error.cause?.message)).toContain(`planted failure for ${failing.id}`);
    // The scanner's retry, the fault gone: the key it kept live is revoked, the other changes nothing.
    expect(
      await report([
        { token: failing.value, url: LEAK_URL },
        { token: next.value, url: LEAK_URL },
      ]),
    ).toEqual({
      status: 200,
      json: [
        { token_hash: hashApiKey(failing.value), token_type: "invoicing_api_key", label: "true_positive" },
        { token_hash: hashApiKey(next.value), token_type: "invoicing_api_key", label: "true_positive" },
      ],
    });
    expect(await keyRow(failing.id)).toMatchObject({ revokeReason: "leaked" });
  });

  it("acts once on 1,000 copies of one key and answers each copy, at once", async () => {
    const team = await createTeam("pro");
    const key = await insertKey(team.org.id, { name: "Copied" });
    // Counts every alert the report tries to raise, even one the unique key then drops.
    await run(
      "create table alert_attempts (api_key_id text not null)",
      `create function count_alert_attempt() returns trigger language plpgsql as $$
       begin insert into alert_attempts values (new.api_key_id); return new; end $$`,
      "create trigger count_alert_attempt before insert on alerts for each row execute function count_alert_attempt()",
    );
    try {
      const started = performance.now();
      const answer = await report(Array.from({ length: 1000 }, (_, copy) => ({ token: key.value, url: `${LEAK_URL}#L${copy}` })));
      const elapsedMs = performance.now() - started;
      expect(answer.status).toBe(200);
      expect(answer.json).toHaveLength(1000);
      expect(
        (answer.json as { token_hash: string; label: string }[]).every(
          (token) => token.label === "true_positive" && token.token_hash === hashApiKey(key.value),
        ),
      ).toBe(true);
      const attempts = rowsOf(await getDb().execute(sql`select count(*)::int as n from alert_attempts where api_key_id = ${key.id}`));
      expect(attempts).toEqual([{ n: 1 }]);
      // 1,000 transactions took 5 s; one takes milliseconds (the bound leaves room for a busy machine).
      expect(elapsedMs).toBeLessThan(2000);
    } finally {
      await run("drop trigger count_alert_attempt on alerts", "drop function count_alert_attempt()", "drop table alert_attempts");
    }
    const entries = await leakEntries(team.org.id);
    expect(entries.map((entry) => entry.action).sort()).toEqual(["api_key.leaked", "api_key.revoked"]);
    expect(entries.find((entry) => entry.action === "api_key.leaked")?.after).toMatchObject({ leakedAt: `${LEAK_URL}#L0` });
  });
});
