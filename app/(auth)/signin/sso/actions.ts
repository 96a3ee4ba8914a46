"use server";

import { redirect } from "next/navigation";
import { publicAction, userAction } from "@/lib/action";
import { requestOrigin } from "@/lib/base-url";
import { safeCallbackPath } from "@/lib/safe-redirect";
import { currentClient } from "@/lib/session";
import { ssoConfirmInput, ssoSignInInput } from "@/lib/sso/input";
import { startSsoConfirmation, startSsoSignIn } from "@/lib/sso/sign-in-start";
import { rememberSsoState } from "@/lib/sso/state-cookie";

/** "Sign in with SSO": off to the provider of the organization that verified the email's domain. */
export const ssoSignInAction = publicAction(ssoSignInInput, async ({ email, callbackUrl }) => {
  const origin = await requestOrigin();
  const flow = await startSsoSignIn(email, safeCallbackPath(callbackUrl), origin, await currentClient());
  await rememberSsoState(flow.state, origin);
  redirect(flow.authorizationUrl);
});

/** Sudo mode for a session the provider made: the provider asks the person to sign in again (docs/security.md#sudo-mode). */
export const ssoConfirmAction = userAction(ssoConfirmInput, async ({ returnTo }, session) => {
  const origin = await requestOrigin();
  const flow = await startSsoConfirmation(session, safeCallbackPath(returnTo), origin);
  await rememberSsoState(flow.state, origin);
  return { url: flow.authorizationUrl };
});
