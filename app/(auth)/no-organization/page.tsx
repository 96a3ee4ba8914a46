import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { getUser } from "@/db/queries/users";
import { Card, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { landingMembership, currentUserId } from "@/lib/session";
import { SignOutForm } from "../sign-out-form";

export const metadata: Metadata = { title: "No organization" };

/** Where a signed-in user lands who belongs to no organization (after leaving or being removed from the last one). */
export default async function NoOrganizationPage() {
  const userId = await currentUserId();
  if (!userId) redirect("/signin");
  const membership = await landingMembership();
  if (membership) redirect(`/${membership.orgSlug}/settings/api`);
  const user = await getUser(userId);
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-xl">You are not in an organization</CardTitle>
        <CardDescription>
          {user?.email ? `${user.email} is` : "Your account is"} not a member of any organization. Ask an owner or admin of your team for an invitation link,
          and open it while signed in.
        </CardDescription>
      </CardHeader>
      <SignOutForm />
    </Card>
  );
}
