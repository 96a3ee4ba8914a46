import "server-only";
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { listMemberships, type MembershipDto } from "@/db/queries/organizations";
import { LAST_ORG_COOKIE } from "@/lib/last-org";
import { auth } from "@/lib/auth";

/** The signed-in user's id from the session, or null. Identity only: roles come from the database. */
export async function currentUserId(): Promise<string | null> {
  const session = await auth();
  return session?.user?.id || null;
}

export async function requireUserId(): Promise<string> {
  const userId = await currentUserId();
  if (!userId) redirect("/signin");
  return userId;
}

/** The organization a signed-in user lands in: the one used last, else the first. */
export async function landingMembership(): Promise<MembershipDto | null> {
  const userId = await requireUserId();
  const memberships = await listMemberships(userId);
  const last = (await cookies()).get(LAST_ORG_COOKIE)?.value;
  return memberships.find((m) => m.orgSlug === last) ?? memberships[0] ?? null;
}
