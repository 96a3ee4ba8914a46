import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { keyFromAuthSecret } from "@/lib/derived-key";

/**
 * Secrets the server must read back (an authenticator's shared secret) are stored sealed with
 * AES-256-GCM under a key derived from AUTH_SECRET for this use alone: a copy of the database
 * without the server's secret gives none of them away, and a changed byte fails to open.
 * Format: `v1.<iv>.<ciphertext>.<tag>`, base64url.
 */
const PURPOSE = "sealed account secrets";

export function sealSecret(plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", keyFromAuthSecret(PURPOSE), iv);
  const sealed = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return ["v1", iv, sealed, cipher.getAuthTag()].map((part) => (typeof part === "string" ? part : part.toString("base64url"))).join(".");
}

export function openSecret(sealed: string): string {
  const [version, iv, data, tag] = sealed.split(".");
  if (version !== "v1" || !iv || !data || !tag) throw new Error("Not a sealed secret of this server.");
  const decipher = createDecipheriv("aes-256-gcm", keyFromAuthSecret(PURPOSE), Buffer.from(iv, "base64url"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(data, "base64url")), decipher.final()]).toString("utf8");
}
