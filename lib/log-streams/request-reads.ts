import type { Mode } from "@/core/enums";
import type { DbOrTx } from "@/db";
import { requestsAfter, type LoggedRequest, type RequestEventRow } from "@/db/queries/log-stream-events";

/** What a stream gets of a read of the request log. */
export interface RequestsRead {
  /** The requests of its mode's keys after its cursor, oldest first. */
  rows: RequestEventRow[];
  /** The last request-log id the read saw, of either mode (the cursor when it saw none after it): the stream has every request of its mode up to it. */
  end: number;
  /** The read stopped at its limit: more requests may follow `end`. */
  cut: boolean;
}

/** The requests of an organization's keys of one mode after a request-log id, reading at most `limit` rows. */
export type ReadRequests = (orgId: string, mode: Mode, after: number, limit: number) => Promise<RequestsRead>;

interface Read {
  after: number;
  limit: number;
  rows: Promise<LoggedRequest[]>;
}

function ofMode(rows: LoggedRequest[], read: Read, mode: Mode, after: number): RequestsRead {
  const end = Math.max(after, rows.at(-1)?.row.id ?? read.after);
  const mine = rows.filter((logged) => logged.mode === mode && logged.row.id > after).map((logged) => logged.row);
  return { rows: mine, end, cut: rows.length === read.limit };
}

/**
 * The request log read once for the streams of one organization in a turn, live and test alike
 * (docs/features/log-streams.md#delivery): a stream whose cursor lies within a read already made
 * takes its mode's rows from that read. Request-log ids are given in commit order, so the rows of a
 * read after a later cursor are all the requests after it that the read could see, up to the
 * read's end.
 */
export function sharedRequestReads(db: DbOrTx): ReadRequests {
  const reads = new Map<string, Read[]>();
  return async (orgId, mode, after, limit) => {
    const made = reads.get(orgId) ?? [];
    for (const read of made) {
      if (read.after > after || read.limit < limit) continue;
      const rows = await read.rows;
      if (rows.length === read.limit && after >= rows.at(-1)!.row.id) continue;
      return ofMode(rows, read, mode, after);
    }
    const read = { after, limit, rows: requestsAfter(db, orgId, after, limit) };
    reads.set(orgId, [...made, read]);
    return ofMode(await read.rows, read, mode, after);
  };
}
