import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { keyFromAuthSecret } from "./derived-key";

/**
 * Secrets the server must read back are stored sealed with AES-256-GCM under a key derived from
 * AUTH_SECRET for each use alone (docs/security.md#secrets-at-rest): a copy of the database without
 * the server's secret gives none of them away, and a changed byte fails to open. Format:
 * `v1.<iv>.<ciphertext>.<tag>`, base64url. Here, below every layer, so the migrations' data step
 * (db/migrate.ts) seals what was stored before with the key the server opens it with.
 */
export interface Sealer {
  seal(plain: string): string;
  /** The plain value; throws on anything this sealer did not seal (a plain value, another purpose's, a changed byte). */
  open(sealed: string): string;
}

const VERSION = "v1";
/** How every sealed value starts, for statements that look for values stored before sealing (`not like 'v1.%'`). */
export const SEALED_PREFIX = `${VERSION}.`;

/** Whether a stored value is sealed already; a value stored before sealing is not (a signing secret starts `whsec_`). */
export const isSealed = (stored: string): boolean => stored.startsWith(SEALED_PREFIX);

/** Seals and opens under the key of `purpose`: the purpose names the key, so renaming one loses what it sealed. */
function sealerFor(purpose: string): Sealer {
  return {
    seal(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", keyFromAuthSecret(purpose), iv);
      const sealed = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
      return [VERSION, ...[iv, sealed, cipher.getAuthTag()].map((part) => part.toString("base64url"))].join(".");
    },
    open(sealed) {
      const [version, iv, data, tag] = sealed.split(".");
      if (version !== VERSION || !iv || !data || !tag) throw new Error(`Not a sealed secret of this server (${purpose}).`);
      const decipher = createDecipheriv("aes-256-gcm", keyFromAuthSecret(purpose), Buffer.from(iv, "base64url"));
      decipher.setAuthTag(Buffer.from(tag, "base64url"));
      return Buffer.concat([decipher.update(Buffer.from(data, "base64url")), decipher.final()]).toString("utf8");
    },
  };
}

/** An authenticator app's shared secret (docs/features/two-factor.md). */
export const accountSecrets = sealerFor("sealed account secrets");
/** A webhook endpoint's signing secrets and a Slack channel's URL (docs/features/webhooks.md#secrets-at-rest). */
export const webhookCredentials = sealerFor("sealed webhook credentials");
/** A log stream's credentials, as one JSON document (docs/features/log-streams.md#credentials). */
export const logStreamCredentials = sealerFor("sealed log stream credentials");
/** An organization's OpenID Connect client secret (docs/features/sso.md#the-connection). */
export const ssoCredentials = sealerFor("sealed sso credentials");
