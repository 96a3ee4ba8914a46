/** Who the server actions see as signed in during a test. */
export const testSession: { userId: string | null } = { userId: null };

export function actAs(userId: string | null): void {
  testSession.userId = userId;
}
