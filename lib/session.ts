import "server-only";
import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { cache } from "react";
import { listMemberships, type MembershipDto } from "@/db/queries/organizations";
import { liveSessionUserId } from "@/db/queries/sessions";
import { LAST_ORG_COOKIE } from "@/lib/last-org";
import { auth } from "@/lib/auth";
import { clientOf, type Client } from "@/lib/auth/client";

export interface SignedInSession {
  userId: string;
  sessionId: string;
}

/**
 * The signed-in user's session: the cookie's, if its row in `sessions` is still live, else null.
 * A signed-out or "signed out everywhere" cookie is refused here even though its signature is
 * good; so is one issued before sessions were kept on the server (it names no session). Read
 * once per request.
 */
export const currentSession = cache(async (): Promise<SignedInSession | null> => {
  const session = await auth();
  const userId = session?.user?.id;
  const sessionId = session?.sessionId;
  if (!userId || !sessionId) return null;
  return (await liveSessionUserId(sessionId, userId)) ? { userId, sessionId } : null;
});

/** The signed-in user's id, or null. Identity only: roles come from the database. */
export async function currentUserId(): Promise<string | null> {
  return (await currentSession())?.userId ?? null;
}

/** The organization a signed-in user lands in: the one used last, else the first. */
export async function landingMembership(): Promise<MembershipDto | null> {
  const userId = await currentUserId();
  if (!userId) redirect("/signin");
  const memberships = await listMemberships(userId);
  const last = (await cookies()).get(LAST_ORG_COOKIE)?.value;
  return memberships.find((m) => m.orgSlug === last) ?? memberships[0] ?? null;
}

/** Where the current request comes from, as the activity history records its actor. */
export async function currentClient(): Promise<Client> {
  return clientOf(await headers());
}
