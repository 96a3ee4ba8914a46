import type { Metadata } from "next";
import Link from "next/link";
import { getUser } from "@/db/queries/users";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";
import { isInvitationToken, invitationPath } from "@/lib/invitations/link";
import { findInvitation, invitationRefusal } from "@/lib/invitations/accept";
import { ROLE_INFO } from "@/lib/roles";
import { currentUserId } from "@/lib/session";
import { SignOutForm } from "../../sign-out-form";
import { AcceptInvitationForm, InvitationSignUpForm } from "./invitation-forms";

export const metadata: Metadata = { title: "Invitation" };

/**
 * Where an invitation link lands. An open invitation is accepted by the signed-in user
 * with its email, or by signing up with that email fixed; any other state says why it cannot be.
 */
export default async function InvitationPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const invitation = isInvitationToken(token) ? await findInvitation(token) : null;
  const refusal = invitationRefusal(invitation);
  const userId = await currentUserId();
  if (!invitation || refusal) {
    return (
      <Card>
        <CardHeader>
          <CardTitle className="text-xl">This invitation cannot be used</CardTitle>
          <CardDescription>{refusal}</CardDescription>
        </CardHeader>
        <CardFooter>
          <Button asChild variant="outline" className="w-full">
            <Link href={userId ? "/" : "/signin"}>{userId ? "Go to your dashboard" : "Sign in"}</Link>
          </Button>
        </CardFooter>
      </Card>
    );
  }

  const from = invitation.invitedByName ? `${invitation.invitedByName} invited you` : "You are invited";
  const heading = (
    <CardHeader>
      <CardTitle className="text-xl">Join {invitation.orgName}</CardTitle>
      <CardDescription>
        {from} to join {invitation.orgName} as {ROLE_INFO[invitation.role].withArticle}. The invitation is for{" "}
        <strong className="text-foreground">{invitation.email}</strong>.
      </CardDescription>
    </CardHeader>
  );
  const signedIn = userId ? await getUser(userId) : null;
  if (signedIn && signedIn.email === invitation.email) {
    return (
      <Card>
        {heading}
        <AcceptInvitationForm token={token} orgName={invitation.orgName} />
      </Card>
    );
  }
  if (signedIn) {
    return (
      <Card>
        {heading}
        <CardContent>
          <p className="text-sm text-muted-foreground">
            You are signed in as <strong className="text-foreground">{signedIn.email}</strong>. Only {invitation.email} can accept this invitation: sign out,
            then sign in or sign up with that email.
          </p>
        </CardContent>
        <SignOutForm callbackUrl={invitationPath(token)} />
      </Card>
    );
  }
  return (
    <Card>
      {heading}
      <InvitationSignUpForm
        token={token}
        email={invitation.email}
        signInHref={`/signin?${new URLSearchParams({ callbackUrl: invitationPath(token), email: invitation.email })}`}
      />
    </Card>
  );
}
