import type { Metadata } from "next";
import { headers } from "next/headers";
import { safeCallbackPath } from "@/lib/safe-redirect";
import type { SsoRefusalReason } from "@/lib/sso/refusal";
import { SsoSignInForm } from "./sso-sign-in-form";

export const metadata: Metadata = { title: "Sign in with SSO" };

/** What the callback's refusal (its `error`) tells the person; the details are in the server's log. */
const REFUSALS: Record<SsoRefusalReason, string> = {
  state: "This sign-in was not started in this browser, or its cookie was lost. Start again here.",
  expired: "That sign-in link was already used or has expired. Start again here.",
  provider: "Your identity provider's answer could not be verified, or it did not sign you in. Start again, or ask your administrator.",
  identity: "Your identity provider signed you in, but not with an email at a domain your organization has verified. Ask your administrator.",
};

/** Said when an organization's requirement sent a password session here (lib/org-access.ts); which organization is in the address already, so it is not named. */
const REQUIRED = "This organization requires single sign-on: sign in through its identity provider to continue.";

export default async function SsoSignInPage({
  searchParams,
}: {
  searchParams: Promise<{ callbackUrl?: string; error?: string; email?: string; required?: string }>;
}) {
  const { callbackUrl, error, email, required } = await searchParams;
  const returnTo = safeCallbackPath(callbackUrl, (await headers()).get("host") ?? undefined);
  const refusal = error && error in REFUSALS ? REFUSALS[error as SsoRefusalReason] : null;
  return (
    <SsoSignInForm callbackUrl={returnTo} refusal={refusal} notice={required ? REQUIRED : null} email={typeof email === "string" ? email.slice(0, 254) : ""} />
  );
}
