"use server";

import { CredentialsSignin } from "next-auth";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { z } from "zod";
import { completeSecondFactor, endAllSessions, endSession } from "@/db/queries/sessions";
import { emailHasSecondFactor } from "@/db/queries/two-factor";
import { publicAction, secondStepAction, userAction } from "@/lib/action";
import { passkeyAssertionOptions } from "@/lib/auth/passkeys";
import { requireSecondFactor } from "@/lib/auth/second-factor";
import { secondFactorProofInput } from "@/lib/auth/two-factor-input";
import { secondStepPath } from "@/lib/auth/second-step-path";
import { renewSession, signIn, signOut } from "@/lib/auth";
import { clientOf } from "@/lib/auth/client";
import { TooManyAttemptsForEmail, TooManyAttemptsFromAddress } from "@/lib/auth/credentials";
import { signUp } from "@/lib/auth/sign-up";
import { acceptInvitation, signUpWithInvitation } from "@/lib/invitations/accept";
import { UserFacingError } from "@/lib/errors";
import { boundedString } from "@/lib/input-rules";
import { safeCallbackPath } from "@/lib/safe-redirect";
import { currentClient, currentSession, sessionAwaitingSecondFactor } from "@/lib/session";
import { signInInput, signUpInput } from "@/lib/auth/input";
import { acceptInvitationInput, signUpWithInvitationInput } from "@/lib/invitations/input";

/** What a refused sign-in tells the user; right after sign-up, that the account exists all the same. */
function refusalMessage(error: CredentialsSignin, { afterSignUp }: { afterSignUp: boolean }): string {
  if (error instanceof TooManyAttemptsFromAddress) {
    return afterSignUp
      ? "Your account was created, but sign-in from your network is paused after too many failed attempts. Sign in again in 15 minutes."
      : "Too many failed sign-in attempts from your network. Try again in 15 minutes.";
  }
  if (error instanceof TooManyAttemptsForEmail) {
    return afterSignUp
      ? "Your account was created, but sign-in for this email is paused after too many failed attempts. Sign in again in 15 minutes."
      : "Too many failed sign-in attempts for this account. Try again in 15 minutes.";
  }
  // The same message whether or not the email has an account.
  return afterSignUp ? "Your account was created. Sign in with your email and password." : "That email and password do not match an account.";
}

/**
 * Signs in with the password; a person with a second factor goes on to its step (docs/features/two-factor.md), whose
 * session reaches nothing else until it passes.
 */
async function signInOrExplain(email: string, password: string, redirectTo: string, context: { afterSignUp: boolean }): Promise<never> {
  try {
    await signIn("credentials", { email, password, redirectTo, redirect: false });
  } catch (error) {
    if (error instanceof CredentialsSignin) throw new UserFacingError(refusalMessage(error, context));
    throw error; // a real failure, with its cause
  }
  redirect((await emailHasSecondFactor(email)) ? secondStepPath(redirectTo) : redirectTo);
}

/**
 * The second step of a sign-in, with a code from the authenticator app, a passkey or a
 * recovery code. The session gets a new id before it becomes a whole one, so a copy of the cookie
 * taken at the password step never reaches more than that step.
 */
export const secondFactorSignInAction = secondStepAction(
  secondFactorProofInput.and(z.object({ callbackUrl: boundedString(2048).optional() })),
  async ({ callbackUrl, ...proof }, { userId, sessionId }) => {
    await requireSecondFactor({ userId, sessionId }, proof, (await currentClient()).ip);
    await completeSecondFactor(await renewSession(), userId);
    redirect(safeCallbackPath(callbackUrl));
  },
);

/** A passkey challenge for the second step, kept on the waiting session's row (docs/features/two-factor.md). */
export const beginPasskeySignInAction = secondStepAction(z.object({}), (_input, session) => passkeyAssertionOptions(session));

export const signInAction = publicAction(signInInput, async ({ email, password, callbackUrl }) =>
  signInOrExplain(email, password, safeCallbackPath(callbackUrl), { afterSignUp: false }),
);

export const signUpAction = publicAction(signUpInput, async (input) => {
  const { orgSlug } = await signUp(input, clientOf(await headers()));
  return signInOrExplain(input.email, input.password, `/${orgSlug}/settings/api`, { afterSignUp: true });
});

/** A new user signs up through an invitation link and lands in its organization. */
export const signUpWithInvitationAction = publicAction(signUpWithInvitationInput, async (input) => {
  const { email, orgSlug } = await signUpWithInvitation(input, await currentClient());
  return signInOrExplain(email, input.password, `/${orgSlug}/settings/api`, { afterSignUp: true });
});

/** A signed-in user with the invited email joins and lands in the organization. */
export const acceptInvitationAction = userAction(acceptInvitationInput, async ({ token }, { userId }) => {
  const { orgSlug } = await acceptInvitation(token, userId, await currentClient());
  redirect(`/${orgSlug}/settings/api`);
});

/**
 * Ends this session on the server before its cookie goes, so a copy of the cookie is refused too.
 * With `callbackUrl` (an invitation link), sign-in returns there.
 */
export const signOutAction = publicAction(z.object({ callbackUrl: boundedString(2048).optional() }), async ({ callbackUrl }) => {
  // A sign-in that stopped at its second step ends the same way.
  const session = (await currentSession()) ?? (await sessionAwaitingSecondFactor());
  if (session) await endSession(session.sessionId);
  await signOut({ redirectTo: callbackUrl ? `/signin?${new URLSearchParams({ callbackUrl: safeCallbackPath(callbackUrl) })}` : "/signin" });
});

/** Ends every session of the user, on every device, this one included. */
export const signOutEverywhereAction = userAction(z.object({}), async (_input, { userId }) => {
  await endAllSessions(userId);
  await signOut({ redirectTo: "/signin" });
});
