import "server-only";
import { sql } from "drizzle-orm";
import { getDb } from "@/db";
import { rowsOf } from "@/db/rows";
import { IDEMPOTENCY_WINDOW_HOURS } from "@/db/schema";
import type { Mode } from "@/core/enums";

/**
 * A request that has held its key this long without finishing died with its process: a retry of
 * the same request may take the key over. Longer than any request runs.
 */
const IDEMPOTENCY_ABANDONED_SECONDS = 60;

export interface IdempotentRequest {
  orgId: string;
  /** The calling key's: a test call never replays a live answer, nor takes a live call's key. */
  mode: Mode;
  key: string;
  apiKeyId: string;
  requestHash: string;
}

export interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body: Uint8Array;
}

export type IdempotencyClaim = { kind: "claimed" } | { kind: "replay"; response: StoredResponse } | { kind: "in_use" } | { kind: "reused" };

interface KeyRow {
  request_hash: string;
  response_status: number | null;
  response_headers: Record<string, string> | null;
  response_body: Uint8Array | null;
}

/**
 * Claims the key for this request, or says why not. The primary key decides between concurrent
 * requests: one inserts, the others find its row. An expired key, or an abandoned claim of the
 * same request, is taken over in the same statement.
 */
export async function claimIdempotencyKey(request: IdempotentRequest): Promise<IdempotencyClaim> {
  const claimed = rowsOf<{ claimed: boolean }>(
    await getDb().execute(sql`
      insert into idempotency_keys (org_id, mode, key, api_key_id, request_hash)
      values (${request.orgId}, ${request.mode}, ${request.key}, ${request.apiKeyId}, ${request.requestHash})
      on conflict (org_id, mode, key) do update
        set api_key_id = excluded.api_key_id, request_hash = excluded.request_hash, created_at = now(),
            response_status = null, response_headers = null, response_body = null
        where idempotency_keys.created_at < now() - ${IDEMPOTENCY_WINDOW_HOURS}::int * interval '1 hour'
           or (idempotency_keys.response_status is null and idempotency_keys.request_hash = excluded.request_hash
               and idempotency_keys.created_at < now() - ${IDEMPOTENCY_ABANDONED_SECONDS}::int * interval '1 second')
      returning true as claimed`),
  );
  if (claimed.length > 0) return { kind: "claimed" };
  const [row] = rowsOf<KeyRow>(
    await getDb().execute(sql`
      select request_hash, response_status, response_headers, response_body
      from idempotency_keys where org_id = ${request.orgId} and mode = ${request.mode} and key = ${request.key}`),
  );
  // Gone between the two statements: its request failed and gave the key back. Still running
  // for this caller's purposes; a retry claims it.
  if (!row) return { kind: "in_use" };
  if (row.request_hash !== request.requestHash) return { kind: "reused" };
  if (row.response_status === null || row.response_body === null) return { kind: "in_use" };
  return { kind: "replay", response: { status: row.response_status, headers: row.response_headers ?? {}, body: new Uint8Array(row.response_body) } };
}

/** Stores the response a retry replays. */
export async function completeIdempotencyKey(request: IdempotentRequest, response: StoredResponse): Promise<void> {
  await getDb().execute(sql`
    update idempotency_keys
    set response_status = ${response.status}, response_headers = ${JSON.stringify(response.headers)}::jsonb, response_body = ${Buffer.from(response.body)}
    where org_id = ${request.orgId} and mode = ${request.mode} and key = ${request.key} and request_hash = ${request.requestHash} and response_status is null`);
}

/** Gives the key back after a failure of ours, so a retry runs the request again. */
export async function releaseIdempotencyKey(request: IdempotentRequest): Promise<void> {
  await getDb().execute(sql`
    delete from idempotency_keys
    where org_id = ${request.orgId} and mode = ${request.mode} and key = ${request.key} and request_hash = ${request.requestHash} and response_status is null`);
}
