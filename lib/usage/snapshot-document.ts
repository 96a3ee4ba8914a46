import { statusBounds } from "@/core/request-log";
import type { UsagePart } from "@/core/usage-part";
import { SNAPSHOT_LEVELS, type SnapshotFilters, type SnapshotLevel } from "@/core/usage-snapshot-levels";
import { mergeUsageParts } from "./aggregate";

/**
 * A closed period's usage as one document (lib/usage/snapshots.ts builds them): once an hour or a
 * day is over, its rollup rows no longer change, so they are summed once, at each level of detail
 * a read may ask for, and stored as JSON. A read then parses a few documents instead of fetching
 * thousands of rows: at 10M log rows a day holds about 2,400 rollup rows, and fetching a row costs
 * about 4 µs, parsing its entry in a document a tenth of that. A day also keeps the cumulative
 * document of every request up to its end, so any run of whole days is the difference of two.
 */

/**
 * Keys and endpoints once each; a row is [key index, endpoint index, status, count, 4xx, 5xx,
 * bucket, requests, bucket, requests, …], an index -1 and a status 0 where the level has none.
 */
interface SnapshotDocument {
  keys: string[];
  endpoints: string[];
  rows: number[][];
}

const HISTOGRAM_AT = 6;

function indexOf(names: string[], positions: Map<string, number>, name: string): number {
  if (name === "") return -1;
  let position = positions.get(name);
  if (position === undefined) positions.set(name, (position = names.push(name) - 1));
  return position;
}

/** The parts summed at a level, as its document. */
export function snapshotAt(parts: Iterable<UsagePart>, level: SnapshotLevel): UsagePart[] {
  return mergeUsageParts(parts, SNAPSHOT_LEVELS[level]);
}

/** Parts already summed at a level (snapshotAt), as a document. */
export function encodeSnapshot(merged: readonly UsagePart[]): string {
  const document: SnapshotDocument = { keys: [], endpoints: [], rows: [] };
  const keyPositions = new Map<string, number>();
  const endpointPositions = new Map<string, number>();
  for (const part of merged) {
    const row = [
      indexOf(document.keys, keyPositions, part.keyId),
      indexOf(document.endpoints, endpointPositions, part.endpoint),
      part.status,
      part.count,
      part.errors4xx,
      part.errors5xx,
    ];
    for (let i = 0; i < part.buckets.length; i++) row.push(part.buckets[i]!, part.counts[i]!);
    document.rows.push(row);
  }
  return JSON.stringify(document);
}

/** Whether a part is one of the requests the query's filters keep. */
export function matchesUsageFilters(part: UsagePart, query: SnapshotFilters): boolean {
  if (query.keyId !== undefined && part.keyId !== query.keyId) return false;
  if (query.endpoint !== undefined && part.endpoint !== query.endpoint) return false;
  if (query.method !== undefined && !part.endpoint.startsWith(`${query.method} `)) return false;
  if (query.status !== undefined) {
    const { min, max } = statusBounds(query.status);
    if (part.status < min || part.status > max) return false;
  }
  return true;
}

/**
 * The document's parts that match the query's filters, dated `periodStart`, counted `sign` times:
 * -1 takes a cumulative document off a later one.
 */
export function decodeSnapshot(text: string, periodStart: number, sign: 1 | -1, query: SnapshotFilters): UsagePart[] {
  const document = JSON.parse(text) as SnapshotDocument;
  const parts: UsagePart[] = [];
  for (const row of document.rows) {
    const [key, endpoint, status, count, errors4xx, errors5xx] = row as [number, number, number, number, number, number];
    const part = {
      periodStart,
      keyId: document.keys[key] ?? "",
      endpoint: document.endpoints[endpoint] ?? "",
      status,
      count: sign * count,
      errors4xx: sign * errors4xx,
      errors5xx: sign * errors5xx,
      buckets: [] as number[],
      counts: [] as number[],
    };
    if (!matchesUsageFilters(part, query)) continue;
    const size = (row.length - HISTOGRAM_AT) / 2;
    part.buckets = new Array<number>(size);
    part.counts = new Array<number>(size);
    for (let i = 0; i < size; i++) {
      part.buckets[i] = row[HISTOGRAM_AT + 2 * i]!;
      part.counts[i] = sign * row[HISTOGRAM_AT + 1 + 2 * i]!;
    }
    parts.push(part);
  }
  return parts;
}
