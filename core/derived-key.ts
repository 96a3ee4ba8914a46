import { hkdfSync } from "node:crypto";

/**
 * A 32-byte key for one purpose, derived from AUTH_SECRET with HKDF-SHA256: each use (signing
 * unsubscribe links, sealing authenticator secrets, sealing webhook credentials) has its own key, and one tells nothing of another.
 */
export function keyFromAuthSecret(purpose: string): Buffer {
  const secret = process.env.AUTH_SECRET;
  if (!secret) throw new Error(`AUTH_SECRET is not set: no key for ${purpose}.`);
  return Buffer.from(hkdfSync("sha256", secret, "", `invoicing: ${purpose}`, 32));
}
