/** Who the server actions see as signed in during a test. */
export const testSession: {
  userId: string | null;
  sessionId: string;
  secondFactorPending: boolean;
  /** How long ago the session last proved who it is: sudo mode's clock (docs/security.md#sudo-mode). */
  authenticatedMsAgo: number;
  /** The organization whose identity provider made the session (docs/features/sso.md), null for a password sign-in. */
  ssoOrgId: string | null;
  client: { ip: string; userAgent: string | null };
} = {
  userId: null,
  sessionId: "ses_test",
  secondFactorPending: false,
  authenticatedMsAgo: 0,
  ssoOrgId: null,
  client: { ip: "203.0.113.10", userAgent: "vitest" },
};

/** Acts as `userId`; with `sessionId`, as that session of theirs (one createSession made, for what checks it stays live). */
export function actAs(userId: string | null, sessionId = "ses_test"): void {
  testSession.userId = userId;
  testSession.sessionId = sessionId;
  testSession.secondFactorPending = false;
  testSession.authenticatedMsAgo = 0;
  testSession.ssoOrgId = null;
}

/** Acts as `userId` in a session `orgId`'s identity provider made. */
export function actAsThroughSso(userId: string, orgId: string, sessionId = "ses_test"): void {
  actAs(userId, sessionId);
  testSession.ssoOrgId = orgId;
}

/** Acts as `userId` in a session that last gave its password 11 minutes ago: out of sudo mode, so a sensitive change asks who they are. */
export function actAsOutsideSudoMode(userId: string): void {
  actAs(userId);
  testSession.authenticatedMsAgo = 11 * 60_000;
}

/** Acts as `userId` in a sign-in that passed the password and waits for its second factor (docs/features/two-factor.md). */
export function actAsAwaitingSecondFactor(userId: string, sessionId = "ses_test"): void {
  actAs(userId, sessionId);
  testSession.secondFactorPending = true;
}

/** Runs `read` with `userId` signed in: for loaders that read the session themselves. */
export function readAs<T>(userId: string | null, read: () => Promise<T>): Promise<T> {
  actAs(userId);
  return read();
}
