import "server-only";
import { cookies } from "next/headers";
import { SSO_CALLBACK_PATH } from "@/core/sso";
import { SSO_FLOW_SECONDS } from "@/db/queries/sso-sign-in";

/**
 * The browser keeps the flow's `state` for the callback to compare (docs/features/sso.md#signing-in):
 * sent only to the callback's path, never readable by scripts, and with SameSite=Lax, which still
 * sends it on the provider's top-level redirect back.
 */
const SSO_STATE_COOKIE = "sso-state";

export async function rememberSsoState(state: string, origin: string): Promise<void> {
  (await cookies()).set(SSO_STATE_COOKIE, state, {
    httpOnly: true,
    sameSite: "lax",
    secure: origin.startsWith("https:"),
    path: SSO_CALLBACK_PATH,
    maxAge: SSO_FLOW_SECONDS,
  });
}

/** The callback's read: the state this browser was given, if any, and the cookie gone, as a flow is answered once. */
export async function takeSsoState(): Promise<string | undefined> {
  const jar = await cookies();
  const state = jar.get(SSO_STATE_COOKIE)?.value;
  jar.delete({ name: SSO_STATE_COOKIE, path: SSO_CALLBACK_PATH });
  return state;
}
