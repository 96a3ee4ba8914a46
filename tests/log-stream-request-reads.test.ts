import { describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { requestsAfter } from "@/db/queries/log-stream-events";
import { sharedRequestReads } from "@/lib/log-streams/request-reads";
import { startApiServer } from "./helpers/api-server";
import { createOrg, insertKey } from "./helpers/factories";

const api = startApiServer();

/** An organization with a live and a test key, and `live` requests of the live key logged. */
async function organizationWithRequests(live: number) {
  const org = await createOrg("pro");
  const liveKey = await insertKey(org.id, { name: "Live" });
  const testKey = await insertKey(org.id, { name: "Test", mode: "test" });
  for (let i = 0; i < live; i++) await api.request("/v1/products", { key: liveKey.value });
  await api.request("/v1/products", { key: testKey.value });
  return { org, liveKey };
}

const ids = (rows: { request_id: string }[]) => rows.map((row) => row.request_id);

// docs/features/log-streams.md#delivery: an organization's streams of one mode share a turn's reads of the request log.
describe("a turn's shared reads of the request log", () => {
  it("serve a later cursor from the read already made: no second read, so a request logged since is not in it", async () => {
    const { org, liveKey } = await organizationWithRequests(3);
    const read = sharedRequestReads(getDb());
    const first = await read(org.id, "live", 0, 1000);
    expect(first).toHaveLength(3);
    await api.request("/v1/products", { key: liveKey.value });
    expect(ids(await read(org.id, "live", first[0]!.id, 1000))).toEqual(ids(first.slice(1)));
    expect(await read(org.id, "live", first[2]!.id, 1000)).toEqual([]);
    // A new turn reads again, and finds it.
    expect(await sharedRequestReads(getDb())(org.id, "live", first[2]!.id, 1000)).toHaveLength(1);
  });

  it("read again past the end of a read cut at its limit, and never mix organizations or modes", async () => {
    const { org } = await organizationWithRequests(4);
    const other = await organizationWithRequests(2);
    const read = sharedRequestReads(getDb());
    const cut = await read(org.id, "live", 0, 2);
    expect(cut).toHaveLength(2);
    // Within the cut read: its rows after the cursor.
    expect(ids(await read(org.id, "live", cut[0]!.id, 2))).toEqual(ids(cut.slice(1)));
    // At its end: a new read, the next two.
    const all = await requestsAfter(getDb(), org.id, "live", 0, 1000);
    expect(ids(await read(org.id, "live", cut[1]!.id, 2))).toEqual(ids(all.slice(2, 4)));
    expect(ids(await read(other.org.id, "live", 0, 1000))).toEqual(ids(await requestsAfter(getDb(), other.org.id, "live", 0, 1000)));
    const test = await read(org.id, "test", 0, 1000);
    expect(test).toHaveLength(1);
    expect(test[0]!.key_name).toBe("Test");
  });
});
