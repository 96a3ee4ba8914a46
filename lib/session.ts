import "server-only";
import { cookies, headers } from "next/headers";
import { cache } from "react";
import { listMemberships, type MembershipDto } from "@/db/queries/organizations";
import { liveSession } from "@/db/queries/sessions";
import { LAST_ORG_COOKIE } from "@/lib/last-org";
import { auth } from "@/lib/auth";
import { clientOf, type Client } from "@/lib/auth/client";
import { redirectToSignIn } from "@/lib/sign-in-redirect";

export interface SignedInSession {
  userId: string;
  sessionId: string;
  /** When the person last gave their password or a second factor in this session (sudo mode). */
  authenticatedAt: Date;
  /** The organization whose identity provider made this session, null for a password sign-in (docs/features/sso.md). */
  ssoOrgId: string | null;
}

/** The cookie's session, if its row in `sessions` is still live, whatever its stage. Read once per request. */
const cookieSession = cache(async (): Promise<(SignedInSession & { secondFactorPending: boolean }) | null> => {
  const session = await auth();
  const userId = session?.user?.id;
  const sessionId = session?.sessionId;
  if (!userId || !sessionId) return null;
  const live = await liveSession(sessionId, userId);
  return live && { userId, sessionId, ...live };
});

/** The cookie's live session if it is at this stage of signing in, without the stage. */
async function sessionAtStage({ secondFactorPending }: { secondFactorPending: boolean }): Promise<SignedInSession | null> {
  const session = await cookieSession();
  return session && session.secondFactorPending === secondFactorPending
    ? { userId: session.userId, sessionId: session.sessionId, authenticatedAt: session.authenticatedAt, ssoOrgId: session.ssoOrgId }
    : null;
}

/**
 * The signed-in user's session: the cookie's, if its row in `sessions` is still live and whole,
 * else null. A signed-out or "signed out everywhere" cookie is refused here even though its
 * signature is good; so is one issued before sessions were kept on the server (it names no
 * session), and one whose second factor has not passed yet (docs/features/two-factor.md): every page, action and
 * route reads the user from here, so such a session reaches none of them.
 */
export function currentSession(): Promise<SignedInSession | null> {
  return sessionAtStage({ secondFactorPending: false });
}

/** A session that passed the password and waits for its second factor: the second-factor page's only reader. */
export function sessionAwaitingSecondFactor(): Promise<SignedInSession | null> {
  return sessionAtStage({ secondFactorPending: true });
}

/** The signed-in user's id, or null. Identity only: roles come from the database. */
export async function currentUserId(): Promise<string | null> {
  return (await currentSession())?.userId ?? null;
}

/** The organization a signed-in user lands in: the one used last, else the first. */
export async function landingMembership(): Promise<MembershipDto | null> {
  const userId = await currentUserId();
  if (!userId) return redirectToSignIn();
  const memberships = await listMemberships(userId);
  const last = (await cookies()).get(LAST_ORG_COOKIE)?.value;
  return memberships.find((m) => m.orgSlug === last) ?? memberships[0] ?? null;
}

/** Where the current request comes from, as the activity history records its actor. */
export async function currentClient(): Promise<Client> {
  return clientOf(await headers());
}
