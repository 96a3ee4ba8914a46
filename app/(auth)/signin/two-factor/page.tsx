import type { Metadata } from "next";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { secondFactorMethods } from "@/db/queries/two-factor";
import { currentUserId, sessionAwaitingSecondFactor } from "@/lib/session";
import { safeCallbackPath } from "@/lib/safe-redirect";
import { SecondFactorForm } from "./second-factor-form";

export const metadata: Metadata = { title: "Two-factor authentication" };

/** The second step of a sign-in, the one page a session that passed only the password reaches. */
export default async function SecondFactorPage({ searchParams }: { searchParams: Promise<{ callbackUrl?: string }> }) {
  const { callbackUrl } = await searchParams;
  const returnTo = safeCallbackPath(callbackUrl, (await headers()).get("host") ?? undefined);
  if (await currentUserId()) redirect(returnTo);
  const waiting = await sessionAwaitingSecondFactor();
  if (!waiting) redirect(`/signin?${new URLSearchParams({ callbackUrl: returnTo })}`);
  return <SecondFactorForm callbackUrl={returnTo} methods={await secondFactorMethods(waiting.userId)} />;
}
