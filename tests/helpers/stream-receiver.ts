import { sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, expect } from "vitest";
import { getDb } from "@/db";
import { rowsOf } from "@/db/rows";
import type { LogReceiver } from "./log-receivers";

/**
 * How long a test waits for activity entries and alerts to reach a stream: they wait for every
 * older transaction of the PostgreSQL server to end (docs/features/log-streams.md#delivery),
 * other databases' included, and the test files running beside this one (servers they spawn, a
 * transaction they hold on purpose) held them back past 15 s in one CI run. The waits poll, so a
 * run on a quiet server is not slower for it.
 */
export const VISIBLE_WITHIN_MS = 60_000;

/**
 * A log stream receiver for the test file that calls this: started before its tests, with the
 * SSRF guard letting 127.0.0.1 through (each test file runs in a process of its own);
 * after each test the database's streams are deleted (the delivery task serves every stream of
 * the database, so a test's streams end with it), the receiver forgets what it got, and what broke
 * its service's format fails the test.
 */
export function receiverForThisFile<R extends LogReceiver<unknown>>(receiver: R): R {
  beforeAll(async () => {
    process.env.WEBHOOK_ALLOW_PRIVATE = "true";
    await receiver.start();
  });
  afterAll(() => receiver.stop());
  afterEach(async () => {
    await getDb().execute(sql`delete from log_streams`);
    receiver.events.length = 0;
    receiver.requests.length = 0;
    expect(receiver.problems).toEqual([]);
  });
  return receiver;
}

/**
 * Until no transaction older than the organization's last activity entry or alert runs on the server (the
 * other test files' included): a stream created then starts after that entry, and a turn then sees both. One created while
 * such a transaction runs may also carry the entry (docs/features/log-streams.md#streams).
 */
export async function settled(orgId: string) {
  await expect
    .poll(
      async () => {
        const [row] = rowsOf<{ settled: boolean }>(
          await getDb().execute(
            sql`select coalesce(greatest((select max(tx) from activity_log where org_id = ${orgId}), (select max(tx) from alerts where org_id = ${orgId})) < pg_snapshot_xmin(pg_current_snapshot()), true) as settled`,
          ),
        );
        return row!.settled;
      },
      { timeout: VISIBLE_WITHIN_MS, interval: 50 },
    )
    .toBe(true);
}
