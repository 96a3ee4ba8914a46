import type { Mode } from "@/core/enums";
import type { DbOrTx } from "@/db";
import { requestsAfter, type RequestEventRow } from "@/db/queries/log-stream-events";

/** The requests of an organization's keys of one mode after a request-log id, oldest first, at most `limit`. */
export type ReadRequests = (orgId: string, mode: Mode, after: number, limit: number) => Promise<RequestEventRow[]>;

interface Read {
  after: number;
  limit: number;
  rows: Promise<RequestEventRow[]>;
}

/**
 * The request log read once for the streams of one organization and mode in a turn
 * (docs/features/log-streams.md#delivery): a stream whose cursor lies within a read already made
 * takes its rows from that read. Request-log ids are given in commit order, so the rows of a read
 * after a later cursor are all the requests after it that the read could see: a complete batch if
 * the read was not cut at its limit, a contiguous first part of one if it was.
 */
export function sharedRequestReads(db: DbOrTx): ReadRequests {
  const reads = new Map<string, Read[]>();
  return async (orgId, mode, after, limit) => {
    const key = `${orgId}:${mode}`;
    const made = reads.get(key) ?? [];
    for (const read of made) {
      if (read.after > after || read.limit < limit) continue;
      const rows = await read.rows;
      const cut = rows.length === read.limit;
      if (cut && after >= (rows.at(-1)?.id ?? read.after)) continue;
      return rows.filter((row) => row.id > after);
    }
    const read = { after, limit, rows: requestsAfter(db, orgId, mode, after, limit) };
    reads.set(key, [...made, read]);
    return read.rows;
  };
}
