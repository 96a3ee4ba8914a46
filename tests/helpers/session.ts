/** Who the server actions see as signed in during a test. */
export const testSession: { userId: string | null; client: { ip: string; userAgent: string | null } } = {
  userId: null,
  client: { ip: "203.0.113.10", userAgent: "vitest" },
};

export function actAs(userId: string | null): void {
  testSession.userId = userId;
}

/** Runs `read` with `userId` signed in: for loaders that read the session themselves. */
export function readAs<T>(userId: string | null, read: () => Promise<T>): Promise<T> {
  actAs(userId);
  return read();
}
