import "server-only";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { REQUEST_PATH_HEADER } from "@/lib/request-path";
import { safeCallbackPath } from "@/lib/safe-redirect";

/**
 * A page found its session ended (signed out elsewhere, or never whole): to sign-in, and back to
 * this page after, as proxy.ts sends a visitor without a cookie.
 */
export async function redirectToSignIn(): Promise<never> {
  const path = safeCallbackPath((await headers()).get(REQUEST_PATH_HEADER));
  redirect(path === "/" ? "/signin" : `/signin?${new URLSearchParams({ callbackUrl: path })}`);
}
