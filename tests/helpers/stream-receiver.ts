import { sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, expect } from "vitest";
import { getDb } from "@/db";
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
 * SSRF guard letting 127.0.0.1 through (tests/setup/database.ts undoes that after the file);
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
