import type { Metadata } from "next";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { currentUserId, sessionAwaitingSecondFactor } from "@/lib/session";
import { secondStepPath } from "@/lib/auth/second-step-path";
import { safeCallbackPath } from "@/lib/safe-redirect";
import { SignInForm } from "./signin-form";

export const metadata: Metadata = { title: "Sign in" };

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ callbackUrl?: string; email?: string }> }) {
  const { callbackUrl, email } = await searchParams;
  const returnTo = safeCallbackPath(callbackUrl, (await headers()).get("host") ?? undefined);
  if (await currentUserId()) redirect(returnTo);
  // A sign-in that passed the password goes on with its second step.
  if (await sessionAwaitingSecondFactor()) redirect(secondStepPath(returnTo));
  // An invitation's link passes its email along.
  return <SignInForm callbackUrl={returnTo} email={typeof email === "string" ? email.slice(0, 254) : ""} />;
}
