import type { NextRequest } from "next/server";
import { log } from "@/core/log";
import { signIn } from "@/lib/auth";
import { clientOf } from "@/lib/auth/client";
import { requestOrigin } from "@/lib/base-url";
import { SsoRefusal } from "@/lib/sso/refusal";
import { finishSsoFlow } from "@/lib/sso/sign-in-callback";
import { ssoRedirectUri } from "@/core/sso";
import { takeSsoState } from "@/lib/sso/state-cookie";

/** Where the browser goes, as a path on the address it called (lib/auth/request-origin.ts says why). */
function goTo(path: string): Response {
  return new Response(null, { status: 303, headers: { location: path } });
}

/**
 * The redirect URI an organization's provider sends the browser back to (docs/features/sso.md#signing-in).
 * A refusal goes back to the SSO sign-in page saying why; its cause is logged.
 */
export async function GET(request: NextRequest): Promise<Response> {
  const cookieState = await takeSsoState();
  try {
    const finished = await finishSsoFlow({
      cookieState,
      callback: request.nextUrl,
      redirectUri: ssoRedirectUri(await requestOrigin()),
      client: clientOf(request.headers),
    });
    if (finished.purpose === "sign_in") await signIn("sso", { ticket: finished.ticket, redirect: false });
    return goTo(finished.returnTo);
  } catch (error) {
    if (!(error instanceof SsoRefusal)) throw error;
    log.warn({ err: error, reason: error.reason }, "single sign-on refused");
    return goTo(`/signin/sso?${new URLSearchParams({ error: error.reason })}`);
  }
}
