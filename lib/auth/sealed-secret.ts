import { accountSecrets } from "@/core/sealed-secret";

/**
 * An authenticator app's shared secret is sealed under the account secrets' own key: AES-256-GCM
 * under a key derived from AUTH_SECRET for that use alone (core/sealed-secret.ts), so a copy of the
 * database without the server's secret does not give it away.
 */
export const sealSecret = (plain: string): string => accountSecrets.seal(plain);

export const openSecret = (sealed: string): string => accountSecrets.open(sealed);
