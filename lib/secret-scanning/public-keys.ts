import { createPublicKey, type KeyObject } from "node:crypto";
import { z } from "zod";
import { readAtMost } from "@/lib/api/read-prefix";

/** GitHub's published signing keys for its secret scanning partner program. */
export const GITHUB_SECRET_SCANNING_KEYS_URL = "https://api.github.com/meta/public_keys/secret_scanning";

/** An unknown key identifier fetches the list again, at most this often per list, so a flood of made-up identifiers costs one request a minute. */
const REFETCH_INTERVAL_MS = 60_000;
const FETCH_TIMEOUT_MS = 5_000;
/** GitHub's list is a few KB: a larger answer is not a key list, and is not read past this. */
export const SECRET_SCANNING_KEYS_MAX_BYTES = 64 * 1024;
/** After a failed fetch, reports are answered "unavailable" without another for this long, doubled for each failure in a row up to the maximum. */
const BACKOFF_FIRST_MS = 5_000;
const BACKOFF_MAX_MS = 5 * 60_000;

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

interface ListCache {
  fetched: FetchedKeys | null;
  /** The fetch under way: concurrent reports share it. */
  pending: Promise<FetchedKeys> | null;
  /** The last fetch's failure while fetches keep failing, and until when no report fetches again. */
  failure: { error: unknown; inARow: number; until: number } | null;
}

/** Per list URL. */
const cache = new Map<string, ListCache>();

/** The list's JSON, read up to SECRET_SCANNING_KEYS_MAX_BYTES: a larger answer is cancelled there (or before, by its declared length). */
async function readList(response: Response, url: string): Promise<unknown> {
  const tooLarge = `The secret scanning key list at ${url} is larger than ${SECRET_SCANNING_KEYS_MAX_BYTES.toLocaleString("en-US")} bytes: not read further`;
  if (Number(response.headers.get("content-length") ?? 0) > SECRET_SCANNING_KEYS_MAX_BYTES) {
    await response.body?.cancel();
    throw new SigningKeysUnavailable(tooLarge);
  }
  if (!response.body) return null;
  const bytes = await readAtMost(response.body, SECRET_SCANNING_KEYS_MAX_BYTES);
  if (!bytes) {
    await response.body.cancel();
    throw new SigningKeysUnavailable(tooLarge);
  }
  try {
    return JSON.parse(new TextDecoder().decode(bytes)) as unknown;
  } catch {
    return null;
  }
}

async function fetchKeys(url: string): Promise<FetchedKeys> {
  const response = await fetch(url, { headers: { accept: "application/json" }, signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) }).catch((error: unknown) => {
    throw new SigningKeysUnavailable(`Fetching the secret scanning keys from ${url} failed`, { cause: error });
  });
  if (!response.ok) {
    await response.body?.cancel();
    throw new SigningKeysUnavailable(`Fetching the secret scanning keys from ${url} answered ${response.status}`);
  }
  const parsed = keyList.safeParse(await readList(response, url));
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

/** Fetches the list once for every report waiting on it; a failure starts (or lengthens) the back-off. */
function refetch(url: string, entry: ListCache): Promise<FetchedKeys> {
  entry.pending ??= fetchKeys(url)
    .then(
      (fetched) => {
        entry.fetched = fetched;
        entry.failure = null;
        return fetched;
      },
      (error: unknown) => {
        const inARow = (entry.failure?.inARow ?? 0) + 1;
        entry.failure = { error, inARow, until: Date.now() + Math.min(BACKOFF_FIRST_MS * 2 ** (inARow - 1), BACKOFF_MAX_MS) };
        throw error;
      },
    )
    .finally(() => (entry.pending = null));
  return entry.pending;
}

/**
 * The public key a report names by its `Github-Public-Key-Identifier`, from the list at
 * SECRET_SCANNING_KEYS_URL, cached; an identifier the cached list lacks fetches it again (GitHub
 * rotates its keys), at most once a minute. Null for an identifier the list does not have. While a
 * failed fetch's back-off lasts, a report that needs the list is answered unavailable at once.
 */
export async function signingKey(identifier: string): Promise<KeyObject | null> {
  const url = secretScanningKeysUrl();
  const entry = cache.get(url) ?? { fetched: null, pending: null, failure: null };
  cache.set(url, entry);
  const known = entry.fetched?.keys.get(identifier);
  if (known) return known;
  if (entry.fetched && Date.now() - entry.fetched.fetchedAt < REFETCH_INTERVAL_MS) return null;
  if (entry.failure && !entry.pending && Date.now() < entry.failure.until) {
    const until = new Date(entry.failure.until).toISOString();
    throw new SigningKeysUnavailable(`The secret scanning keys at ${url} failed ${entry.failure.inARow} time(s) in a row; not fetched again before ${until}`, {
      cause: entry.failure.error,
    });
  }
  return (await refetch(url, entry)).keys.get(identifier) ?? null;
}
