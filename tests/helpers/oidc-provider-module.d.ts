/** oidc-provider ships no types: what tests/helpers/oidc-provider.ts uses of it (node_modules/oidc-provider/README.md). */
declare module "oidc-provider" {
  import type { IncomingMessage, ServerResponse } from "node:http";

  interface ClientMetadata {
    client_id: string;
    client_secret?: string;
    redirect_uris: string[];
  }
  interface Configuration {
    clients?: ClientMetadata[];
  }
  export default class Provider {
    constructor(issuer: string, configuration?: Configuration);
    readonly issuer: string;
    /** A Node request listener serving the provider (it is a Koa application). */
    callback(): (request: IncomingMessage, response: ServerResponse) => void;
  }
}
