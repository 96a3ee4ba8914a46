import { createRequire } from "node:module";
import path from "node:path";
import { createClient, type ClickHouseClient, type Logger } from "@clickhouse/client";
import { log } from "@/core/log";

/**
 * The analytics store's one client (docs/features/analytics-store.md): the official
 * `@clickhouse/client`, over HTTP(S) to a ClickHouse server or ClickHouse Cloud, or over an embedded
 * ClickHouse (chdb) plugged into the same client as its connection, so every statement is the same
 * whichever answers.
 */

/** `CLICKHOUSE_URL`: a server's `http(s)://user:password@host:port/database`, or `chdb:` and a directory (`chdb:memory` for none); unset, analytics stay on PostgreSQL. */
export function clickhouseUrl(): string | null {
  return process.env.CLICKHOUSE_URL?.trim() || null;
}

/** How long a statement may take before the client gives up on it: an export retries on its next turn, a read fails with its cause. */
const REQUEST_TIMEOUT_MS = 10_000;

/** Where the embedded engine is installed when the app's own dependencies do not hold it (`npm run clickhouse:embedded`). */
const EMBEDDED_PACKAGE = path.join("scripts", "embedded-clickhouse", "package.json");

type ChdbConnectionModule = { createChdbConnection(options: { path: string }): NonNullable<Parameters<typeof createClient>[0]>["connection"] };

function chdbConnectionModule(): ChdbConnectionModule {
  const places = [import.meta.url, path.resolve(EMBEDDED_PACKAGE)];
  const causes: unknown[] = [];
  for (const place of places) {
    try {
      return createRequire(place)("chdb/connection") as ChdbConnectionModule;
    } catch (error) {
      causes.push(error);
    }
  }
  throw new Error("CLICKHOUSE_URL names embedded ClickHouse (chdb:), but the chdb package is not installed: run `npm run clickhouse:embedded`.", {
    cause: causes.at(-1),
  });
}

/** The client's own warnings and errors (a socket hung up, say) as the service's log lines, not console output. */
class ServiceLogger implements Logger {
  trace() {}
  debug() {}
  info() {}
  warn({ module, message, args, err }: Parameters<Logger["warn"]>[0]) {
    log.warn({ err, module, ...args }, `ClickHouse client: ${message}`);
  }
  error({ module, message, args, err }: Parameters<Logger["error"]>[0]) {
    log.error({ err, module, ...args }, `ClickHouse client: ${message}`);
  }
}

function connect(url: string): ClickHouseClient {
  const options = { request_timeout: REQUEST_TIMEOUT_MS, log: { LoggerClass: ServiceLogger } };
  if (!url.startsWith("chdb:")) return createClient({ url, ...options });
  const directory = url.slice("chdb:".length);
  const connection = chdbConnectionModule().createChdbConnection({ path: directory === "memory" ? ":memory:" : directory });
  return createClient({ connection, ...options });
}

let client: ClickHouseClient | null = null;

/** The process's client of the store CLICKHOUSE_URL names, made at its first use. */
export function clickhouse(): ClickHouseClient {
  const url = clickhouseUrl();
  if (!url) throw new Error("The analytics store is not configured: CLICKHOUSE_URL is unset.");
  return (client ??= connect(url));
}

/** Closes the process's client, if it opened one; the next use makes one for CLICKHOUSE_URL as it is then. */
export async function closeClickhouse(): Promise<void> {
  const open = client;
  client = null;
  await open?.close();
}
