import { sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, expect } from "vitest";
import { getDb } from "@/db";
import type { LogReceiver } from "./log-receivers";

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
