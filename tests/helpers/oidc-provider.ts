import { generateKeyPairSync, randomBytes, type JsonWebKey } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A real OpenID provider on 127.0.0.1 (oidc-provider, a certified implementation) with two clients,
 * for the single sign-on tests (docs/features/sso.md). `issuerAt` gives the issuer it names in its
 * discovery document; by default the address it is served on, another one makes a provider whose
 * document names an issuer other than the one a person typed.
 *
 * People sign in through oidc-provider's own development login and consent pages (devInteractions:
 * any password, the login is the subject), driven over real HTTP by `signInAt`, so the app's
 * authorization URL, the provider's checks (PKCE, state, nonce, prompt, max_age) and its token
 * endpoint all run as they would against a company's provider. tests/oidc-provider-helper.test.ts
 * shows each promise below holds without the app.
 */
export interface OidcAccount {
  email: string;
  email_verified?: boolean;
  name?: string;
}

export interface LocalOidcProvider {
  /** Where it is served: `http://127.0.0.1:<port>`. */
  url: string;
  /** The issuer its discovery document names. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** A second client registered at the same provider (as another organization's would be). */
  otherClient: { clientId: string; clientSecret: string };
  /** Adds or replaces a person the provider knows, by subject. */
  setAccount(sub: string, account: OidcAccount): void;
  /**
   * Signs `sub` in at the provider for an authorization URL the app built, as a browser would: GET
   * the URL, then the provider's own login and consent forms (real HTTP with a cookie jar of its
   * own, redirects followed by hand within the provider's origin), and returns the URL the provider
   * finally redirects to outside itself: the app's redirect_uri with `code` and `state`, or with
   * `error`. A `sub` the provider does not know (no `setAccount`) is refused once past the login
   * form: the provider redirects with `error=access_denied` (and `state`), as when a person cancels.
   * Throws when the provider shows an error page instead (a client_id or redirect_uri it does not
   * know, say), on a URL not at `url`, or after 10 requests (each bounded to 5 s).
   */
  signInAt(authorizationUrl: string | URL, sub: string): Promise<URL>;
  /**
   * While on, the provider's published keys (jwks_uri) are another key's, under the kid of the key
   * it signs with, so the ID tokens it signs no longer verify against what it publishes (the
   * "signed by another key" attack).
   */
  publishForeignKeys(on: boolean): void;
  stop(): Promise<void>;
}

/** The parts of oidc-provider (a Koa application) used here that tests/helpers/oidc-provider-module.d.ts leaves out. */
interface ProviderApp {
  use(middleware: (ctx: { method: string; path: string; body: unknown }, next: () => Promise<void>) => Promise<void>): void;
  Interaction: { find(uid: string): Promise<{ result?: InteractionResult; exp: number; save(ttlSeconds: number): Promise<unknown> } | undefined> };
}
/** What the login and consent forms leave for the authorization endpoint, or an error it redirects with. */
interface InteractionResult {
  login?: { accountId: string };
  error?: string;
  error_description?: string;
}

/** An RS256 signing key made here, so its kid is known and a foreign key can wear the same one. */
function rsaKey(kid: string) {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const label = { kid, alg: "RS256", use: "sig" };
  return { private: { ...privateKey.export({ format: "jwk" }), ...label }, public: { ...publicKey.export({ format: "jwk" }), ...label } };
}

/** A sign-in takes 7 requests: the authorization URL, then login form, post, resume, consent form, post, resume. */
const HOPS = 10;
const HOP_TIMEOUT_MS = 5_000;

export async function startOidcProvider(
  options: {
    issuerAt?: (url: string) => string;
    /** Redirect URIs registered for both clients; default ["http://localhost:3000/api/auth/sso/callback"]. */
    redirectUris?: string[];
  } = {},
): Promise<LocalOidcProvider> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const issuer = options.issuerAt?.(url) ?? url;
  const redirectUris = options.redirectUris ?? ["http://localhost:3000/api/auth/sso/callback"];
  const clientId = "invoicing-dashboard";
  const clientSecret = "oidc-client-secret-for-tests-7Hq2";
  const otherClient = { clientId: "another-organization", clientSecret: "oidc-client-secret-for-tests-Zp9w" };
  // Confidential clients that authenticate at the token endpoint with HTTP Basic, as the app's
  // openid-client does (ClientSecretBasic). PKCE is not required of them, but checked when sent.
  const client = (id: string, secret: string) => ({
    client_id: id,
    client_secret: secret,
    redirect_uris: redirectUris,
    response_types: ["code"],
    grant_types: ["authorization_code"],
    token_endpoint_auth_method: "client_secret_basic",
  });

  const accounts = new Map<string, OidcAccount>();
  const signingKey = rsaKey("local-oidc-provider-key");
  let foreignKeys: { keys: JsonWebKey[] } | undefined;
  let publishingForeignKeys = false;

  // The provider's issuer is fixed at construction, so it is made once the port is known.
  const configuration = {
    clients: [client(clientId, clientSecret), client(otherClient.clientId, otherClient.clientSecret)],
    jwks: { keys: [signingKey.private] },
    findAccount: (_ctx: unknown, sub: string) => {
      const account = accounts.get(sub);
      return account && { accountId: sub, claims: () => ({ sub, ...account }) };
    },
    claims: { acr: null, sid: null, auth_time: null, iss: null, openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
    // By default the scopes' claims go to the userinfo endpoint only when an access token is issued
    // too; the app reads the person from the ID token, so they go there (OIDC Core 5.4 allows it).
    conformIdTokenClaims: false,
    cookies: { keys: [randomBytes(32).toString("base64url")] },
    ttl: { AccessToken: 600, AuthorizationCode: 60, IdToken: 600, Interaction: 600, Session: 600, Grant: 600 },
    // Its error pages as JSON (error, error_description), which signInAt's errors quote.
    renderError: (ctx: { type: string; body: unknown }, out: object) => {
      ctx.type = "json";
      ctx.body = out;
    },
  };
  const provider = await quietly(async () => new (await import("oidc-provider")).default(issuer, configuration));
  const app = provider as unknown as ProviderApp;

  app.use(async (ctx, next) => {
    // devInteractions takes any login, and a subject findAccount does not know then ends in a 500
    // page where the browser comes back to /auth/<uid>: it is refused there instead, as a cancel is.
    const resume = ctx.method === "GET" && /^\/auth\/([^/]+)$/.exec(ctx.path);
    const interaction = resume ? await app.Interaction.find(resume[1]!) : undefined;
    const login = interaction?.result?.login?.accountId;
    if (interaction && login !== undefined && !accounts.has(login)) {
      interaction.result = { error: "access_denied", error_description: "unknown account" };
      await interaction.save(interaction.exp - Math.floor(Date.now() / 1000));
    }
    await next();
    if (publishingForeignKeys && ctx.method === "GET" && ctx.path === "/jwks") {
      foreignKeys ??= { keys: [rsaKey(signingKey.public.kid).public] };
      ctx.body = foreignKeys;
    }
  });
  server.on("request", provider.callback());

  return {
    url,
    issuer,
    clientId,
    clientSecret,
    otherClient,
    setAccount: (sub, account) => void accounts.set(sub, account),
    signInAt: (authorizationUrl, sub) => signIn(new URL(authorizationUrl), sub, new URL(url).origin),
    publishForeignKeys: (on) => void (publishingForeignKeys = on),
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Runs `make` without oidc-provider's start-up warnings (Node 20 "unsupported", the in-memory
 * adapter, devInteractions), all expected of a test provider; on import and in its constructor.
 */
async function quietly<T>(make: () => Promise<T>): Promise<T> {
  const warn = console.warn;
  console.warn = (...args: unknown[]) => void (String(args[0]).startsWith("oidc-provider WARNING:") || warn(...args));
  try {
    return await make();
  } finally {
    console.warn = warn;
  }
}

/** The browser's part of `signInAt`: each request by hand, so every redirect out of the provider is seen. */
async function signIn(start: URL, sub: string, origin: string): Promise<URL> {
  if (start.origin !== origin) throw new Error(`signInAt: ${start.href} is not at the provider (${origin})`);
  const jar = new CookieJar();
  let request: { url: URL; form?: URLSearchParams } = { url: start };
  for (let hop = 0; hop < HOPS; hop++) {
    const response = await fetch(request.url, {
      method: request.form ? "POST" : "GET",
      headers: { cookie: jar.header(request.url), ...(request.form && { "content-type": "application/x-www-form-urlencoded" }) },
      body: request.form,
      redirect: "manual",
      signal: AbortSignal.timeout(HOP_TIMEOUT_MS),
    });
    jar.store(request.url, response.headers.getSetCookie());
    const location = response.headers.get("location");
    if (response.status >= 300 && response.status < 400 && location) {
      const next = new URL(location, request.url);
      if (next.origin !== origin) return next;
      request = { url: next };
      continue;
    }
    const html = await response.text();
    const form = response.ok ? formIn(html) : undefined;
    if (!form) throw new Error(`signInAt: the provider answered ${request.url.pathname} with ${response.status}: ${html.slice(0, 500)}`);
    // The login form's fields are `login` (the subject) and `password` (any); consent has none.
    if (form.fields.has("login")) form.fields.set("login", sub);
    if (form.fields.has("password")) form.fields.set("password", "any password");
    request = { url: new URL(form.action, request.url), form: form.fields };
  }
  throw new Error(`signInAt: no redirect out of the provider after ${HOPS} requests`);
}

/** The one form of a devInteractions page (lib/views/login.js, interaction.js): its action and inputs. */
function formIn(html: string): { action: string; fields: URLSearchParams } | undefined {
  const form = /<form\b[^>]*\baction="([^"]*)"[^>]*>([\s\S]*?)<\/form>/i.exec(html);
  if (!form) return undefined;
  const fields = new URLSearchParams();
  for (const [input] of form[2]!.matchAll(/<input\b[^>]*>/gi)) {
    const name = /\bname="([^"]*)"/.exec(input)?.[1];
    if (name) fields.set(unescapeHtml(name), unescapeHtml(/\bvalue="([^"]*)"/.exec(input)?.[1] ?? ""));
  }
  return { action: unescapeHtml(form[1]!), fields };
}

const unescapeHtml = (text: string) =>
  text.replace(
    /&(amp|lt|gt|quot|#39|#x27|#x2F);/g,
    (_, entity: string) => ({ amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'", "#x27": "'", "#x2F": "/" })[entity]!,
  );

/**
 * Enough of a browser's cookie jar for one provider on one host: cookies by name and path (the
 * provider scopes its interaction cookies to /interaction/<uid> and /auth/<uid>), sent where the
 * path matches, removed when they expire.
 */
class CookieJar {
  private cookies = new Map<string, { name: string; value: string; path: string }>();

  store(url: URL, setCookies: string[]) {
    for (const line of setCookies) {
      const [pair = "", ...attributes] = line.split(";").map((part) => part.trim());
      const name = pair.slice(0, pair.indexOf("="));
      const value = pair.slice(pair.indexOf("=") + 1);
      const attribute = (key: string) => attributes.find((a) => a.toLowerCase().startsWith(`${key}=`))?.slice(key.length + 1);
      const path = attribute("path") ?? (url.pathname.replace(/\/[^/]*$/, "") || "/");
      const [maxAge, expires] = [attribute("max-age"), attribute("expires")];
      const gone = value === "" || (maxAge !== undefined && Number(maxAge) <= 0) || (expires !== undefined && Date.parse(expires) <= Date.now());
      if (gone) this.cookies.delete(`${path} ${name}`);
      else this.cookies.set(`${path} ${name}`, { name, value, path });
    }
  }

  header(url: URL): string {
    const matches = (path: string) => url.pathname === path || url.pathname.startsWith(path.endsWith("/") ? path : `${path}/`);
    return [...this.cookies.values()]
      .filter((cookie) => matches(cookie.path))
      .map((cookie) => `${cookie.name}=${cookie.value}`)
      .join("; ");
  }
}
