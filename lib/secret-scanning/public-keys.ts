import { createPublicKey, type KeyObject } from "node:crypto";
import { z } from "zod";

/** GitHub's published signing keys for its secret scanning partner program. */
export const GITHUB_SECRET_SCANNING_KEYS_URL = "https://api.github.com/meta/public_keys/secret_scanning";

/** An unknown key identifier fetches the list again, at most this often per list, so a flood of made-up identifiers costs one request a minute. */
const REFETCH_INTERVAL_MS = 60_000;
const FETCH_TIMEOUT_MS = 5_000;

export function secretScanningKeysUrl(): string {
  return process.env.SECRET_SCANNING_KEYS_URL || GITHUB_SECRET_SCANNING_KEYS_URL;
}

const keyList = z.object({
  public_keys: z.array(z.object({ key_identifier: z.string().min(1).max(256), key: z.string().min(1).max(4096), is_current: z.boolean().optional() })).max(100),
});

/** The keys could not be fetched or read: the report cannot be checked now (the scanner retries). */
export class SigningKeysUnavailable extends Error {}

interface FetchedKeys {
  keys: Map<string, KeyObject>;
  fetchedAt: number;
}

/** Per list URL: the keys last fetched, and the fetch under way (concurrent reports share it). */
const cache = new Map<string, { fetched: FetchedKeys | null; pending: Promise<FetchedKeys> | null }>();

async function fetchKeys(url: string): Promise<FetchedKeys> {
  const response = await fetch(url, { headers: { accept: "application/json" }, signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) }).catch((error: unknown) => {
    throw new SigningKeysUnavailable(`Fetching the secret scanning keys from ${url} failed`, { cause: error });
  });
  if (!response.ok) throw new SigningKeysUnavailable(`Fetching the secret scanning keys from ${url} answered ${response.status}`);
  const parsed = keyList.safeParse(await response.json().catch(() => null));
  if (!parsed.success) throw new SigningKeysUnavailable(`The secret scanning keys at ${url} are not a list of public keys`, { cause: parsed.error });
  const keys = new Map<string, KeyObject>();
  for (const { key_identifier, key } of parsed.data.public_keys) {
    try {
      keys.set(key_identifier, createPublicKey(key));
    } catch (error) {
      throw new SigningKeysUnavailable(`The secret scanning key ${key_identifier} at ${url} is not a public key`, { cause: error });
    }
  }
  return { keys, fetchedAt: Date.now() };
}

/**
 * The public key a report names by its `Github-Public-Key-Identifier`, from the list at
 * SECRET_SCANNING_KEYS_URL, cached; an identifier the cached list lacks fetches it again (GitHub
 * rotates its keys), at most once a minute. Null for an identifier the list does not have.
 */
export async function signingKey(identifier: string): Promise<KeyObject | null> {
  const url = secretScanningKeysUrl();
  const entry = cache.get(url) ?? { fetched: null, pending: null };
  cache.set(url, entry);
  const known = entry.fetched?.keys.get(identifier);
  if (known) return known;
  if (entry.fetched && Date.now() - entry.fetched.fetchedAt < REFETCH_INTERVAL_MS) return null;
  entry.pending ??= fetchKeys(url).finally(() => (entry.pending = null));
  entry.fetched = await entry.pending;
  return entry.fetched.keys.get(identifier) ?? null;
}
