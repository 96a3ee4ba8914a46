import "server-only";
import { sql } from "drizzle-orm";
import { getDb, type DbOrTx } from "@/db";
import { rowsOf } from "@/db/rows";

/** At most `limit` attempts by `subject` per fixed window of `windowSeconds`. */
export interface ThrottleLimit {
  subject: string;
  limit: number;
  windowSeconds: number;
}

/** An attempt counted in a subject's window, with the failures already counted when it began. */
export interface CountedAttempt {
  subject: string;
  failuresBefore: number;
}

/** Every window is at most this long, so older rows decide nothing and can go. */
const LONGEST_WINDOW_SECONDS = 24 * 60 * 60;

/**
 * Counts one attempt in the subject's window unless the window is full (then null). One upsert
 * under the row lock, like the monthly quota, so concurrent attempts cannot pass the limit; a
 * window that has run out starts again with this attempt.
 */
async function countIn(db: DbOrTx, { subject, limit, windowSeconds }: ThrottleLimit): Promise<CountedAttempt | null> {
  const expired = sql`auth_throttle.window_start <= now() - ${windowSeconds}::int * interval '1 second'`;
  const rows = rowsOf<{ failures: number }>(
    await db.execute(sql`
      insert into auth_throttle (subject, window_start, attempts, failures) values (${subject}, now(), 1, 0)
      on conflict (subject) do update set
        window_start = case when ${expired} then now() else auth_throttle.window_start end,
        attempts = case when ${expired} then 1 else auth_throttle.attempts + 1 end,
        failures = case when ${expired} then 0 else auth_throttle.failures end
      where ${expired} or auth_throttle.attempts < ${limit}
      returning failures`),
  );
  return rows[0] ? { subject, failuresBefore: Number(rows[0].failures) } : null;
}

class WindowFull extends Error {
  constructor(readonly limit: ThrottleLimit) {
    super(`throttled: ${limit.subject}`);
  }
}

/**
 * Counts one attempt against every limit, all or none, before the work they protect: the attempt
 * as counted for each limit, or the first limit that was already reached (nothing counted then).
 * Callers list limits in one fixed order (address before email), so the row locks cannot deadlock.
 */
export async function countAttempt(limits: ThrottleLimit[]): Promise<{ counted: CountedAttempt[] } | { refusedBy: ThrottleLimit }> {
  try {
    return {
      counted: await getDb().transaction(async (tx) => {
        const counted: CountedAttempt[] = [];
        for (const limit of limits) {
          const attempt = await countIn(tx, limit);
          if (!attempt) throw new WindowFull(limit);
          counted.push(attempt);
        }
        return counted;
      }),
    };
  } catch (error) {
    if (error instanceof WindowFull) return { refusedBy: error.limit };
    throw error;
  }
}

/** The counted attempt failed: it stays counted until its window ends or a later success forgets it. */
export async function attemptFailed(attempt: CountedAttempt): Promise<void> {
  await getDb().execute(sql`update auth_throttle set failures = failures + 1 where subject = ${attempt.subject}`);
  await getDb().execute(sql`delete from auth_throttle where window_start < now() - ${LONGEST_WINDOW_SECONDS}::int * interval '1 second'`);
}

/**
 * The counted attempt succeeded: it no longer counts, and with `forgetFailures` neither do the
 * failures counted before it began. Attempts made alongside it stay counted, so a success does
 * not open the window to a burst running at the same time.
 */
export async function attemptSucceeded(attempt: CountedAttempt, { forgetFailures }: { forgetFailures: boolean }): Promise<void> {
  const forgotten = forgetFailures ? attempt.failuresBefore : 0;
  await getDb().execute(sql`
    update auth_throttle set attempts = greatest(attempts - 1 - ${forgotten}::int, 0), failures = greatest(failures - ${forgotten}::int, 0)
    where subject = ${attempt.subject}`);
}
