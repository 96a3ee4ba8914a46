"use client";

import type { PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON } from "@simplewebauthn/browser";
import type { ConfirmAction } from "@/components/use-confirm-action";
import { PASSKEY_WRONG_HOST, passkeyHostProblem } from "@/lib/passkey-host";

/** The server action that hands a browser a passkey challenge (docs/features/two-factor.md): to sign it, or to make a new passkey. */
export type BeginPasskeyProofAction = ConfirmAction<Record<string, never>, PublicKeyCredentialRequestOptionsJSON | null>;
export type BeginPasskeySetupAction = ConfirmAction<Record<string, never>, PublicKeyCredentialCreationOptionsJSON>;

/** The browser's own words for a ceremony the person closed, made plain. */
function ceremonyFailure(error: unknown): string {
  const name = error instanceof Error ? error.name : "";
  if (name === "NotAllowedError" || name === "AbortError") return "The passkey prompt was closed or timed out. Try again.";
  if (name === "InvalidStateError") return "This device already holds one of your passkeys.";
  if (name === "NotSupportedError") return "This browser cannot use passkeys. Use another way.";
  if (name === "SecurityError") return passkeyHostProblem(new URL(window.location.href)) ?? PASSKEY_WRONG_HOST;
  return `The passkey did not answer: ${error instanceof Error ? error.message : String(error)}`;
}

/**
 * Gets a challenge from the server and has the browser (the person's device) sign it or make a
 * new passkey for it. Answers the credential as JSON for a form, or why there is none. The browser
 * library comes with the first ceremony, not with every page that offers one.
 */
export async function runPasskeyCeremony(
  kind: "sign" | "create",
  begin: BeginPasskeyProofAction | BeginPasskeySetupAction,
): Promise<{ credential: string } | { error: string }> {
  // Said before the server makes a challenge the browser would refuse.
  const wrongHost = passkeyHostProblem(new URL(window.location.href));
  if (wrongHost) return { error: wrongHost };
  const [options, { startAuthentication, startRegistration }] = await Promise.all([begin(null, {}), import("@simplewebauthn/browser")]);
  if (!options.ok) return { error: options.error };
  if (!options.data) return { error: "You have no passkey yet. Use another way." };
  try {
    const credential =
      kind === "sign"
        ? await startAuthentication({ optionsJSON: options.data as PublicKeyCredentialRequestOptionsJSON })
        : await startRegistration({ optionsJSON: options.data as PublicKeyCredentialCreationOptionsJSON });
    return { credential: JSON.stringify(credential) };
  } catch (error) {
    return { error: ceremonyFailure(error) };
  }
}
