import * as client from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startOidcProvider, type LocalOidcProvider } from "./helpers/oidc-provider";

// The test OpenID provider itself (tests/helpers/oidc-provider.ts), driven by openid-client as the
// app drives it but without any app code, so a failure in the single sign-on tests points at the
// app and not at the provider they run against.

const REDIRECT_URI = "http://localhost:3000/api/auth/sso/callback";
const ALICE = { email: "alice@corp.example", email_verified: true, name: "Alice Example" };
let provider: LocalOidcProvider;

beforeAll(async () => {
  provider = await startOidcProvider();
  provider.setAccount("alice", ALICE);
});
afterAll(async () => {
  await provider.stop();
});

/** A fresh openid-client configuration (so nothing, the provider's keys included, is cached from another test). */
async function configFor(clientId = provider.clientId, clientSecret = provider.clientSecret) {
  return client.discovery(new URL(provider.issuer), clientId, undefined, client.ClientSecretBasic(clientSecret), { execute: [client.allowInsecureRequests] });
}

/** An authorization request as the app makes one (PKCE S256, state, nonce), and the checks it keeps for the callback. */
async function authorizationRequest(config: client.Configuration, parameters: Record<string, string> = {}) {
  const pkceCodeVerifier = client.randomPKCECodeVerifier();
  const checks = { pkceCodeVerifier, expectedState: client.randomState(), expectedNonce: client.randomNonce(), idTokenExpected: true };
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: REDIRECT_URI,
    scope: "openid email profile",
    code_challenge: await client.calculatePKCECodeChallenge(pkceCodeVerifier),
    code_challenge_method: "S256",
    state: checks.expectedState,
    nonce: checks.expectedNonce,
    ...parameters,
  });
  return { url, checks };
}

/** Signs `sub` in for a fresh request of `config`'s client: the callback URL and the checks for it. */
async function signIn(config: client.Configuration, sub = "alice", parameters: Record<string, string> = {}) {
  const { url, checks } = await authorizationRequest(config, parameters);
  const callback = await provider.signInAt(url, sub);
  expect(callback.origin + callback.pathname).toBe(REDIRECT_URI);
  expect(callback.searchParams.get("error")).toBeNull();
  expect(callback.searchParams.get("state")).toBe(checks.expectedState);
  return { callback, checks };
}

describe("the local OpenID provider", () => {
  it("signs a person in: the ID token, verified against the published keys, carries their claims and the request's nonce", async () => {
    const config = await configFor();
    client.enableNonRepudiationChecks(config);
    const { callback, checks } = await signIn(config);

    const claims = (await client.authorizationCodeGrant(config, callback, checks)).claims();
    expect(claims).toMatchObject({ sub: "alice", ...ALICE, nonce: checks.expectedNonce, iss: provider.issuer, aud: provider.clientId });
  });

  it("re-authenticates on prompt=login and max_age=0, and says when in auth_time", async () => {
    const before = Math.floor(Date.now() / 1000);
    const config = await configFor();
    const { callback, checks } = await signIn(config, "alice", { prompt: "login", max_age: "0" });

    const claims = (await client.authorizationCodeGrant(config, callback, { ...checks, maxAge: 0 })).claims();
    expect(claims).toMatchObject({ sub: "alice", nonce: checks.expectedNonce });
    expect(claims?.auth_time).toBeGreaterThanOrEqual(before);
    expect(claims?.auth_time).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000));
  });

  it("setAccount replaces a person's claims by subject", async () => {
    provider.setAccount("bob", { email: "bob@corp.example" });
    provider.setAccount("bob", { email: "robert@corp.example", email_verified: false, name: "Robert" });
    const config = await configFor();
    const { callback, checks } = await signIn(config, "bob");

    const claims = (await client.authorizationCodeGrant(config, callback, checks)).claims();
    expect(claims).toMatchObject({ sub: "bob", email: "robert@corp.example", email_verified: false, name: "Robert" });
  });

  it("refuses a subject it does not know with an error redirect to the app", async () => {
    const { url, checks } = await authorizationRequest(await configFor());
    const callback = await provider.signInAt(url, "nobody");

    expect(callback.origin + callback.pathname).toBe(REDIRECT_URI);
    expect(Object.fromEntries(callback.searchParams)).toMatchObject({ error: "access_denied", state: checks.expectedState });
    expect(callback.searchParams.has("code")).toBe(false);
  });

  it("shows an error page, and sends nothing to the app, for a redirect_uri not registered", async () => {
    const { url } = await authorizationRequest(await configFor(), { redirect_uri: "http://localhost:3000/elsewhere" });
    await expect(provider.signInAt(url, "alice")).rejects.toThrow(/redirect_uri/);
  });

  it("with foreign keys published, its ID tokens fail the signature check; without, they pass again", async () => {
    const jwks = async (config: client.Configuration) => ((await (await fetch(config.serverMetadata().jwks_uri!)).json()) as { keys: client.JWK[] }).keys;
    const real = await jwks(await configFor());
    provider.publishForeignKeys(true);
    try {
      const config = await configFor();
      client.enableNonRepudiationChecks(config);
      const { callback, checks } = await signIn(config);
      const foreign = await jwks(config);
      // The same kid, so the client picks the foreign key and the signature, not the lookup, fails.
      expect(foreign.map((key) => key.kid)).toEqual(real.map((key) => key.kid));
      expect(foreign[0]?.n).not.toBe(real[0]?.n);

      await expect(client.authorizationCodeGrant(config, callback, checks)).rejects.toMatchObject({
        code: "OAUTH_INVALID_RESPONSE",
        cause: { message: "JWT signature verification failed" },
      });
    } finally {
      provider.publishForeignKeys(false);
    }
    const config = await configFor();
    client.enableNonRepudiationChecks(config);
    const { callback, checks } = await signIn(config);
    expect((await client.authorizationCodeGrant(config, callback, checks)).claims()?.sub).toBe("alice");
  });

  it("takes a code once", async () => {
    const config = await configFor();
    const { callback, checks } = await signIn(config);

    expect((await client.authorizationCodeGrant(config, callback, checks)).claims()?.sub).toBe("alice");
    await expect(client.authorizationCodeGrant(config, callback, checks)).rejects.toMatchObject({ error: "invalid_grant" });
  });

  it("takes a code only from the client it was issued to", async () => {
    const other = await configFor(provider.otherClient.clientId, provider.otherClient.clientSecret);
    const { callback, checks } = await signIn(other);

    await expect(client.authorizationCodeGrant(await configFor(), callback, checks)).rejects.toMatchObject({ error: "invalid_grant" });
    // The code itself was good: the client it was issued to still redeems it.
    expect((await client.authorizationCodeGrant(other, callback, checks)).claims()).toMatchObject({ sub: "alice", aud: provider.otherClient.clientId });
  });
});
