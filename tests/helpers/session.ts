/** Who the server actions see as signed in during a test. */
export const testSession: { userId: string | null; sessionId: string; client: { ip: string; userAgent: string | null } } = {
  userId: null,
  sessionId: "ses_test",
  client: { ip: "203.0.113.10", userAgent: "vitest" },
};

/** Acts as `userId`; with `sessionId`, as that session of theirs (one createSession made, for what checks it stays live). */
export function actAs(userId: string | null, sessionId = "ses_test"): void {
  testSession.userId = userId;
  testSession.sessionId = sessionId;
}

/** Runs `read` with `userId` signed in: for loaders that read the session themselves. */
export function readAs<T>(userId: string | null, read: () => Promise<T>): Promise<T> {
  actAs(userId);
  return read();
}
