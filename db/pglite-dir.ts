import path from "node:path";

/**
 * Where the embedded database keeps its files. Apart from db/index.ts, so that what needs only
 * the folder (the generated AUTH_SECRET beside it, read by the cluster's primary) does not load
 * the drivers.
 */
export function pgliteDataDir(): string {
  return process.env.PGLITE_DIR ?? path.join(process.cwd(), "data", "pglite");
}
