import type { Metadata } from "next";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { currentUserId } from "@/lib/session";
import { safeCallbackPath } from "@/lib/safe-redirect";
import { SignInForm } from "./signin-form";

export const metadata: Metadata = { title: "Sign in" };

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ callbackUrl?: string; email?: string }> }) {
  const { callbackUrl, email } = await searchParams;
  const returnTo = safeCallbackPath(callbackUrl, (await headers()).get("host") ?? undefined);
  if (await currentUserId()) redirect(returnTo);
  // An invitation's link passes its email along.
  return <SignInForm callbackUrl={returnTo} email={typeof email === "string" ? email.slice(0, 254) : ""} />;
}
