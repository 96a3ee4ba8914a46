import "server-only";
import { sql } from "drizzle-orm";
import { arrayLiteral, getDb } from "@/db";
import { rowsOf } from "@/db/rows";
import type { LeakedKeyResponse } from "@/core/enums";

/** A key a secret scanner reported, as the leaked-key response acts on it: never its hash or value. */
export interface ReportedKeyDto {
  id: string;
  orgId: string;
  name: string;
  /** Not revoked and not expired: a key the report can still do something about. */
  active: boolean;
  response: LeakedKeyResponse;
}

/**
 * The keys whose hashes a report names, across organizations: a scanner's report, like a request
 * to the gateway, names a key and nothing else, and the key says whose it is.
 */
export async function reportedKeys(keyHashes: string[]): Promise<Map<string, ReportedKeyDto>> {
  if (keyHashes.length === 0) return new Map();
  const rows = rowsOf<ReportedKeyDto & { keyHash: string }>(
    await getDb().execute(sql`
      select k.key_hash as "keyHash", k.id, k.org_id as "orgId", k.name,
             (k.revoked_at is null and (k.expires_at is null or k.expires_at > now())) as active,
             o.leaked_key_response as response
      from api_keys k join organizations o on o.id = k.org_id
      where k.key_hash = any(${arrayLiteral(keyHashes)}::text[])`),
  );
  return new Map(rows.map(({ keyHash, ...key }) => [keyHash, key]));
}
