import "server-only";
import * as client from "openid-client";
import { UserFacingError } from "@/lib/errors";
import { RefusedAddressError } from "@/lib/webhooks/address-guard";
import { guardedFetch } from "./guarded-fetch";

/**
 * Saving a connection asks the issuer for real (docs/features/sso.md#the-connection): its OpenID
 * discovery document must be there and name the issuer typed, as openid-client checks it, and
 * list the endpoints the sign-in will use. A refusal says on the issuer's field what was found.
 */

const DISCOVERY_TIMEOUT_SECONDS = 10;

/** What the sign-in needs of the provider's metadata. */
const NEEDED = ["authorization_endpoint", "token_endpoint", "jwks_uri"] as const;

/** The issuer as the provider's discovery document gives it, or a UserFacingError on the `issuer` field. */
export async function discoverIssuer(issuer: string, clientId: string, clientSecret: string): Promise<string> {
  const url = new URL(issuer);
  let metadata: client.ServerMetadata;
  try {
    const config = await client.discovery(url, clientId, clientSecret, undefined, {
      [client.customFetch]: guardedFetch,
      timeout: DISCOVERY_TIMEOUT_SECONDS,
      // Plain http reaches here only where the input allows it (./issuer-url.ts): this machine while developing, or the tests.
      execute: url.protocol === "http:" ? [client.allowInsecureRequests] : [],
    });
    metadata = config.serverMetadata();
  } catch (error) {
    throw refusal(discoveryProblem(url, error), error);
  }
  const missing = NEEDED.filter((name) => typeof metadata[name] !== "string");
  if (missing.length > 0) throw refusal(`The discovery document at ${documentUrl(url)} has no ${missing.join(", ")}: it is not an OpenID provider's.`);
  return metadata.issuer;
}

function refusal(problem: string, cause?: unknown): UserFacingError {
  return new UserFacingError("Check the highlighted fields.", { issuer: [problem] }, { cause });
}

/** Where OpenID Connect Discovery looks for an issuer's document. */
function documentUrl(issuer: URL): string {
  return `${issuer.href.replace(/\/$/, "")}/.well-known/openid-configuration`;
}

/** The error and the errors it was caused by, outermost first. */
function* chain(error: unknown): Generator<unknown> {
  for (let at = error, depth = 0; at !== undefined && at !== null && depth < 8; at = (at as { cause?: unknown }).cause, depth++) yield at;
}

/** The first code an error of the chain carries: openid-client's (OAUTH_…) or the socket's (ENOTFOUND, CERT_…). */
function codeOf(error: unknown): string | undefined {
  for (const at of chain(error)) {
    const code = (at as { code?: unknown }).code;
    if (typeof code === "string") return code;
  }
  return undefined;
}

/** The issuer the provider's document names, from openid-client's refusal of a mismatch, shortened for the page. */
function claimedIssuer(error: unknown): string {
  const body = ((error as { cause?: { body?: { issuer?: unknown } } }).cause?.body ?? {}) as { issuer?: unknown };
  return String(body.issuer).slice(0, 200);
}

function discoveryProblem(issuer: URL, error: unknown): string {
  const refused = [...chain(error)].find((at): at is RefusedAddressError => at instanceof RefusedAddressError);
  if (refused)
    return `${refused.host} resolves to ${refused.address}, a private, loopback or reserved address: the issuer must be reachable from the internet.`;
  const code = codeOf(error);
  switch (code) {
    case "OAUTH_JSON_ATTRIBUTE_COMPARISON_FAILED":
      return `The provider there calls itself “${claimedIssuer(error)}”, not ${issuer.href}: enter the issuer exactly as its discovery document gives it.`;
    case "OAUTH_RESPONSE_IS_NOT_CONFORM": {
      const status = [...chain(error)].find((at): at is Response => at instanceof Response)?.status;
      return `No OpenID discovery document at ${documentUrl(issuer)}${status ? `: the server answered HTTP ${status}` : ""}. Check the issuer URL.`;
    }
    case "OAUTH_RESPONSE_IS_NOT_JSON":
    case "OAUTH_PARSE_ERROR":
    case "OAUTH_INVALID_RESPONSE":
      return `${documentUrl(issuer)} is not an OpenID discovery document. Check the issuer URL.`;
    case "OAUTH_TIMEOUT":
      return `${issuer.origin} did not answer within ${DISCOVERY_TIMEOUT_SECONDS} seconds.`;
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return `${issuer.hostname} could not be resolved. Check the address.`;
    case "ECONNREFUSED":
      return `Nothing answers at ${issuer.origin}.`;
  }
  if (code && /CERT|SELF_SIGNED|UNABLE_TO_VERIFY/.test(code)) return `The TLS certificate of ${issuer.host} is not valid (${code}).`;
  const message = [...chain(error)].at(-1);
  return `The discovery document at ${documentUrl(issuer)} could not be read: ${message instanceof Error ? message.message : String(message)}`;
}
