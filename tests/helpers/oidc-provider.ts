import http from "node:http";
import type { AddressInfo } from "node:net";
import Provider from "oidc-provider";

/**
 * A real OpenID provider on 127.0.0.1 (oidc-provider, a certified implementation) with one client,
 * for the single sign-on tests (docs/features/sso.md). `issuerAt` gives the issuer it names in its
 * discovery document; by default the address it is served on, another one makes a provider whose
 * document names an issuer other than the one a person typed.
 */
export interface LocalOidcProvider {
  /** Where it is served: `http://127.0.0.1:<port>`. */
  url: string;
  /** The issuer its discovery document names. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  stop(): Promise<void>;
}

export async function startOidcProvider(options: { issuerAt?: (url: string) => string } = {}): Promise<LocalOidcProvider> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const issuer = options.issuerAt?.(url) ?? url;
  const clientId = "invoicing-dashboard";
  const clientSecret = "oidc-client-secret-for-tests-7Hq2";
  // The provider's issuer is fixed at construction, so it is made once the port is known.
  const provider = new Provider(issuer, {
    clients: [{ client_id: clientId, client_secret: clientSecret, redirect_uris: ["http://localhost:3000/api/auth/sso/callback"] }],
  });
  server.on("request", provider.callback());
  return {
    url,
    issuer,
    clientId,
    clientSecret,
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
