import "server-only";
import * as client from "openid-client";
import { ssoCredentials } from "@/core/sealed-secret";
import type { SignInConnection } from "@/db/queries/sso-sign-in";
import { guardedFetch } from "./guarded-fetch";

/**
 * openid-client's view of an organization's provider for signing in (docs/features/sso.md#signing-in):
 * its discovery document read again for each flow through the SSRF-guarded fetch, as saving did,
 * so a provider that moved its endpoints or rotated its keys is followed.
 */

const PROVIDER_TIMEOUT_SECONDS = 10;

/**
 * The client authenticates as the provider says it accepts: HTTP Basic, the default OAuth 2.0 and
 * OpenID Connect name when the document is silent, else the secret in the form body.
 */
function clientAuthFor(metadata: client.ServerMetadata, secret: string): client.ClientAuth {
  const methods = metadata.token_endpoint_auth_methods_supported;
  return !methods || methods.includes("client_secret_basic") ? client.ClientSecretBasic(secret) : client.ClientSecretPost(secret);
}

/** The provider of `connection`, its ID tokens' signatures checked against its published keys. */
export async function providerClient(connection: Pick<SignInConnection, "issuer" | "clientId" | "sealedClientSecret">): Promise<client.Configuration> {
  const issuer = new URL(connection.issuer);
  const secret = ssoCredentials.open(connection.sealedClientSecret);
  const options: client.DiscoveryRequestOptions = {
    [client.customFetch]: guardedFetch,
    timeout: PROVIDER_TIMEOUT_SECONDS,
    // Plain http is only ever stored where the issuer's input allowed it (./issuer-url.ts): this machine while developing, or the tests.
    execute: issuer.protocol === "http:" ? [client.allowInsecureRequests] : [],
  };
  const discovered = await client.discovery(issuer, connection.clientId, undefined, undefined, options);
  const metadata = discovered.serverMetadata();
  const config = new client.Configuration(metadata, connection.clientId, undefined, clientAuthFor(metadata, secret));
  config[client.customFetch] = guardedFetch;
  config.timeout = PROVIDER_TIMEOUT_SECONDS;
  if (issuer.protocol === "http:") client.allowInsecureRequests(config);
  // The ID token comes straight from the token endpoint, which OpenID Connect lets a client trust
  // without its signature; checking it against the provider's keys anyway refuses a token a
  // provider did not sign (an attacker between us and it, or a key it no longer publishes).
  client.enableNonRepudiationChecks(config);
  return config;
}
