import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { requestsAfter } from "@/db/queries/log-stream-events";
import { sharedRequestReads } from "@/lib/log-streams/request-reads";
import { createOrg, insertKey } from "./helpers/factories";
import { logRequest } from "./helpers/request-log";

/** An organization with a live and a test key, `live` requests of the live key logged, then one of the test key. */
async function organizationWithRequests(live: number) {
  const org = await createOrg("pro");
  const liveKey = await insertKey(org.id, { name: "Live" });
  const testKey = await insertKey(org.id, { name: "Test", mode: "test" });
  const request = (keyId: string) => logRequest({ orgId: org.id, apiKeyId: keyId, at: new Date() });
  for (let i = 0; i < live; i++) await request(liveKey.id);
  await request(testKey.id);
  return { org, liveKey, testKey, request };
}

const ids = (rows: { request_id: string }[]) => rows.map((row) => row.request_id);
const everyRequest = async (orgId: string) => (await requestsAfter(getDb(), orgId, 0, 1000)).map((logged) => logged.row);

// docs/features/log-streams.md#delivery: an organization's streams share a turn's reads of the request log.
describe("a turn's shared reads of the request log", () => {
  it("serve a later cursor from the read already made: no second read, so a request logged since is not in it", async () => {
    const { org, liveKey, request } = await organizationWithRequests(3);
    const read = sharedRequestReads(getDb());
    const first = await read(org.id, "live", 0, 1000);
    expect(first.rows).toHaveLength(3);
    expect(first.cut).toBe(false);
    await request(liveKey.id);
    const later = await read(org.id, "live", first.rows[0]!.id, 1000);
    expect(ids(later.rows)).toEqual(ids(first.rows.slice(1)));
    expect(later.end).toBe(first.end);
    expect((await read(org.id, "live", first.end, 1000)).rows).toEqual([]);
    // A new turn reads again, and finds it.
    expect((await sharedRequestReads(getDb())(org.id, "live", first.end, 1000)).rows).toHaveLength(1);
  });

  it("read again past the end of a read cut at its limit, and never mix organizations", async () => {
    const { org } = await organizationWithRequests(4);
    const other = await organizationWithRequests(2);
    const read = sharedRequestReads(getDb());
    const cut = await read(org.id, "live", 0, 2);
    expect(cut.rows).toHaveLength(2);
    expect(cut).toMatchObject({ cut: true, end: cut.rows[1]!.id });
    // Within the cut read: its rows after the cursor.
    expect(ids((await read(org.id, "live", cut.rows[0]!.id, 2)).rows)).toEqual(ids(cut.rows.slice(1)));
    // At its end: a new read, the next two.
    const all = await everyRequest(org.id);
    expect(ids((await read(org.id, "live", cut.end, 2)).rows)).toEqual(ids(all.slice(2, 4)));
    expect(ids((await read(other.org.id, "live", 0, 1000)).rows)).toEqual(ids((await everyRequest(other.org.id)).filter((row) => row.key_name === "Live")));
  });

  it("give each mode its own keys' requests from one read, and an end past the other mode's", async () => {
    const { org, liveKey, testKey, request } = await organizationWithRequests(2);
    await request(liveKey.id);
    const all = await everyRequest(org.id);
    const read = sharedRequestReads(getDb());
    const test = await read(org.id, "test", 0, 1000);
    expect(test.rows.map((row) => [row.api_key_id, row.key_name])).toEqual([[testKey.id, "Test"]]);
    // The stream of test mode has every test request up to the last live one.
    expect(test).toMatchObject({ end: all.at(-1)!.id, cut: false });
    // The same read serves live mode: a request logged since is not in it.
    await request(liveKey.id);
    const live = await read(org.id, "live", 0, 1000);
    expect(ids(live.rows)).toEqual(ids(all.filter((row) => row.api_key_id === liveKey.id)));
    // A read cut at its limit within the other mode's requests: nothing of this mode, and an end that passes them.
    const passed = await sharedRequestReads(getDb())(org.id, "test", test.end, 1);
    expect(passed.rows).toEqual([]);
    expect(passed.cut).toBe(true);
    expect(passed.end).toBeGreaterThan(test.end);
  });

  it("carry the time to the millisecond and the key's name as the audit log shows them", async () => {
    const org = await createOrg("pro");
    const key = await insertKey(org.id, { name: "Billing “server” 🧾" });
    const { requestId } = await logRequest({ orgId: org.id, apiKeyId: key.id, at: new Date("2026-11-29T10:11:12.345Z") });
    // The log keeps microseconds; events cut them, as to_char does for activity and alerts.
    await getDb().execute(sql`update request_log set created_at = '2026-11-29T10:11:12.345999Z' where org_id = ${org.id} and request_id = ${requestId}`);
    const [row] = (await sharedRequestReads(getDb())(org.id, "live", 0, 1000)).rows;
    expect(row).toMatchObject({ created_at: "2026-11-29T10:11:12.345Z", key_name: "Billing “server” 🧾", api_key_id: key.id });
  });
});
