import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { rowsOf } from "@/db/rows";
import { logStreams } from "@/db/schema";
import type { Mode } from "@/core/enums";
import { LOG_STREAM_BATCH_MAX } from "@/core/log-streams";
import { deliverDueStreams } from "@/lib/log-streams/delivery";
import { createLogStream } from "@/lib/log-streams/streams";
import { createOrg, insertKey } from "./helpers/factories";
import { SignedEndpoint } from "./helpers/log-receivers";
import { receiverForThisFile } from "./helpers/stream-receiver";

// docs/features/log-streams.md#delivery: one turn's reads of the request log serve every stream of
// the organization, and a stream goes on through them until it has caught up or sent its batches.

const SECRET = `whsec_${Buffer.from("log stream turns secret, 32 byte").toString("base64")}`;
const receiver = receiverForThisFile(new SignedEndpoint(SECRET));

async function stream(orgId: string, name: string, mode: Mode) {
  const settings = { kind: "https" as const, url: `${receiver.url}/${name}` };
  return createLogStream(getDb(), orgId, { name, settings, secrets: { kind: "https", signingSecret: SECRET }, sources: ["requests"], mode }, null);
}

/** `count` requests of the key logged in one statement, as a busy gateway logs them; their request ids, in log order. */
async function logged(orgId: string, keyId: string, count: number): Promise<string[]> {
  const rows = rowsOf<{ request_id: string }>(
    await getDb().execute(sql`
      insert into request_log (org_id, api_key_id, request_id, method, path, endpoint, status, duration_ms, created_at)
      select ${orgId}, ${keyId}, 'req_' || md5(random()::text || i), 'GET', '/v1/products', 'GET /v1/products', 200, 3, now()
      from generate_series(1, ${count}) i
      returning id, request_id`),
  );
  return rows.map((row) => row.request_id);
}

const delivered = (name: string) =>
  receiver.requests
    .filter((request) => request.path === `/${name}`)
    .flatMap((request) => JSON.parse(request.body).data.events.map((event: { id: string }) => event.id));

describe("a turn of log stream delivery", () => {
  it("takes a stream whose cursor lies within another's read on past that read's end, in the same turn", async () => {
    const org = await createOrg("pro");
    const key = await insertKey(org.id);
    await stream(org.id, "first", "live");
    const [early] = await logged(org.id, key.id, 1);
    await stream(org.id, "second", "live");
    const busy = await logged(org.id, key.id, LOG_STREAM_BATCH_MAX + 500);
    // The first stream's read ends a request after the second's cursor: the second's first batch is one short of full.
    expect(await deliverDueStreams(getDb())).toBe(2 * busy.length + 1);
    expect(delivered("first")).toEqual([early, ...busy]);
    expect(delivered("second")).toEqual(busy);
  });

  it("passes more than a read's worth of the other mode's requests in a turn, and sends its own", async () => {
    const org = await createOrg("pro");
    const live = await insertKey(org.id, { name: "Live" });
    const test = await insertKey(org.id, { name: "Test", mode: "test" });
    const { id } = await stream(org.id, "sandbox", "test");
    await logged(org.id, live.id, LOG_STREAM_BATCH_MAX + 200);
    const mine = await logged(org.id, test.id, 2);
    await logged(org.id, live.id, LOG_STREAM_BATCH_MAX + 300);
    expect(await deliverDueStreams(getDb())).toBe(2);
    expect(delivered("sandbox")).toEqual(mine);
    // Its cursor is past the live requests after its own, so the next turn reads nothing again.
    const [row] = await getDb().select({ after: logStreams.requestsAfter }).from(logStreams).where(eq(logStreams.id, id));
    const [last] = rowsOf<{ id: number }>(await getDb().execute(sql`select max(id)::float8 as id from request_log where org_id = ${org.id}`));
    expect(row!.after).toBe(last!.id);
    expect(await deliverDueStreams(getDb())).toBe(0);
  });
});
