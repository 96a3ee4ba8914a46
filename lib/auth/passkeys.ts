import type {
  AuthenticationResponseJSON,
  AuthenticatorTransport,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from "@simplewebauthn/server";
import { passkeyCredentials, recordPasskeyUse, setWebauthnChallenge, takeWebauthnChallenge } from "@/db/queries/passkeys";
import { getUser } from "@/db/queries/users";
import { requestOrigin } from "@/lib/base-url";
import { UserFacingError } from "@/lib/errors";

/**
 * Passkeys as a second factor (docs/features/two-factor.md), through @simplewebauthn/server. A passkey is bound to
 * the dashboard's host (the relying party id) and its origin, both read from the request, so a
 * look-alike site relaying our pages cannot use one. Each challenge is kept on the session's row
 * and taken once (db/queries/passkeys.ts). User verification (a PIN, a fingerprint) is asked for
 * but not required: the password is the first factor, the device the second.
 */
const RP_NAME = "Invoicing";

/**
 * The library, loaded by the first ceremony rather than by every module that reaches the sign-in
 * configuration: it takes about 300 ms to load, which every server start and test file paid
 * (docs/testing.md#ci).
 */
async function webauthn() {
  const [server, { isoBase64URL }] = await Promise.all([import("@simplewebauthn/server"), import("@simplewebauthn/server/helpers")]);
  return { ...server, isoBase64URL };
}

async function relyingParty(): Promise<{ rpID: string; origin: string }> {
  const origin = await requestOrigin();
  return { rpID: new URL(origin).hostname, origin };
}

const transportsOf = (transports: string[]) => transports as AuthenticatorTransport[];

/** What a browser answered a ceremony with, as the form sent it: JSON of its PublicKeyCredential. */
function parseCredential<T>(json: string): T | null {
  try {
    const value: unknown = JSON.parse(json);
    return value !== null && typeof value === "object" && "id" in value && "response" in value ? (value as T) : null;
  } catch {
    return null;
  }
}

/** The options for the browser's navigator.credentials.create(): a new challenge, and the person's passkeys to leave out. */
export async function passkeyRegistrationOptions(session: { userId: string; sessionId: string }): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const [person, existing, { rpID }] = await Promise.all([getUser(session.userId), passkeyCredentials(session.userId), relyingParty()]);
  if (!person) throw new UserFacingError("Your session has ended. Sign in again.");
  const { generateRegistrationOptions, isoBase64URL } = await webauthn();
  const options = await generateRegistrationOptions({
    rpName: RP_NAME,
    rpID,
    userName: person.email,
    userDisplayName: person.name,
    userID: isoBase64URL.toBuffer(isoBase64URL.fromUTF8String(person.id)),
    attestationType: "none",
    excludeCredentials: existing.map((passkey) => ({ id: passkey.credentialId, transports: transportsOf(passkey.transports) })),
    authenticatorSelection: { residentKey: "preferred", userVerification: "preferred" },
  });
  await setWebauthnChallenge(session.sessionId, options.challenge);
  return options;
}

/** A new passkey whose answer checked out, ready to be kept. */
export interface VerifiedPasskey {
  credentialId: string;
  publicKey: string;
  signCount: number;
  transports: string[];
}

/**
 * Checks the browser's new credential against the session's challenge, taken once and outside
 * any transaction, so a refused answer does not give the challenge back.
 */
export async function verifyNewPasskey(session: { sessionId: string }, credentialJson: string): Promise<VerifiedPasskey> {
  const response = parseCredential<RegistrationResponseJSON>(credentialJson);
  const challenge = await takeWebauthnChallenge(session.sessionId);
  if (!response || !challenge) throw new UserFacingError("The passkey could not be added: start again.");
  const [{ rpID, origin }, { verifyRegistrationResponse, isoBase64URL }] = await Promise.all([relyingParty(), webauthn()]);
  const verification = await verifyRegistrationResponse({
    response,
    expectedChallenge: challenge,
    expectedOrigin: origin,
    expectedRPID: rpID,
    requireUserVerification: false,
  }).catch((error: unknown) => {
    throw new UserFacingError(`The passkey could not be added: ${error instanceof Error ? error.message : "its answer did not check out"}.`);
  });
  if (!verification.verified) throw new UserFacingError("The passkey could not be added: its answer did not check out.");
  const { credential } = verification.registrationInfo;
  return {
    credentialId: credential.id,
    publicKey: isoBase64URL.fromBuffer(credential.publicKey),
    signCount: credential.counter,
    transports: credential.transports ?? [],
  };
}

/** The options for navigator.credentials.get(): a new challenge and the person's passkeys. Null when they have none. */
export async function passkeyAssertionOptions(session: { userId: string; sessionId: string }): Promise<PublicKeyCredentialRequestOptionsJSON | null> {
  const [existing, { rpID }] = await Promise.all([passkeyCredentials(session.userId), relyingParty()]);
  if (existing.length === 0) return null;
  const { generateAuthenticationOptions } = await webauthn();
  const options = await generateAuthenticationOptions({
    rpID,
    allowCredentials: existing.map((passkey) => ({ id: passkey.credentialId, transports: transportsOf(passkey.transports) })),
    userVerification: "preferred",
  });
  await setWebauthnChallenge(session.sessionId, options.challenge);
  return options;
}

/**
 * Whether the browser's signature is one of the person's passkeys answering the session's
 * challenge, taking the challenge either way so the same answer never passes twice. A signature
 * that does not check out is a wrong second factor, counted as one by the caller's throttle.
 */
export async function passkeyAssertionPasses(session: { userId: string; sessionId: string }, credentialJson: string): Promise<boolean> {
  const response = parseCredential<AuthenticationResponseJSON>(credentialJson);
  const challenge = await takeWebauthnChallenge(session.sessionId);
  if (!response || !challenge) return false;
  const passkey = (await passkeyCredentials(session.userId)).find((candidate) => candidate.credentialId === response.id);
  if (!passkey) return false;
  const [{ rpID, origin }, { verifyAuthenticationResponse, isoBase64URL }] = await Promise.all([relyingParty(), webauthn()]);
  const verification = await verifyAuthenticationResponse({
    response,
    expectedChallenge: challenge,
    expectedOrigin: origin,
    expectedRPID: rpID,
    credential: { id: passkey.credentialId, publicKey: isoBase64URL.toBuffer(passkey.publicKey), counter: passkey.signCount, transports: passkey.transports },
    requireUserVerification: false,
  }).catch(() => ({ verified: false as const }));
  if (!verification.verified) return false;
  await recordPasskeyUse(passkey.id, verification.authenticationInfo.newCounter);
  return true;
}
