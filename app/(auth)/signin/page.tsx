import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { currentUserId } from "@/lib/session";
import { safeCallbackPath } from "@/lib/safe-redirect";
import { SignInForm } from "./signin-form";

export const metadata: Metadata = { title: "Sign in" };

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ callbackUrl?: string }> }) {
  const { callbackUrl } = await searchParams;
  if (await currentUserId()) redirect(safeCallbackPath(callbackUrl));
  return <SignInForm callbackUrl={safeCallbackPath(callbackUrl)} />;
}
