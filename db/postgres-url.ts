import postgres from "postgres";

/**
 * A PostgreSQL URL as libpq reads it, where the host may be left out when a Unix socket's
 * directory is given as `?host=` (`postgresql://app@/invoicing?host=/var/run/postgresql`), which
 * the WHATWG parser refuses: the missing host reads as localhost.
 */
export function parsePostgresUrl(databaseUrl: string): URL {
  return new URL(databaseUrl.replace(/^([a-z]+:\/\/(?:[^@/?#]*@)?)(?=[/?#]|$)/i, "$1localhost"));
}

/** The directory of the Unix socket a parsed URL names as libpq does (`?host=` a path), or null. */
export function socketDirectory(url: URL): string | null {
  const host = url.searchParams.get("host");
  return host?.startsWith("/") ? host : null;
}

/**
 * Where postgres.js connects for a URL: a Unix socket named as libpq names it (`?host=` a
 * directory, docs/operations.md#sizing) goes to its `path` option, since postgres.js would
 * otherwise send `host` to the server as a setting, which PostgreSQL refuses.
 */
export function postgresTarget(databaseUrl: string): { url: string; path?: string } {
  const url = parsePostgresUrl(databaseUrl);
  const directory = socketDirectory(url);
  if (!directory) return { url: databaseUrl };
  url.searchParams.delete("host");
  return { url: url.toString(), path: `${directory}/.s.PGSQL.${url.port || 5432}` };
}

type ClientOptions = postgres.Options<Record<string, postgres.PostgresType>>;

/** A postgres.js client of a PostgreSQL URL, over TCP or the Unix socket it names. */
export function connectPostgres(databaseUrl: string, options: ClientOptions): postgres.Sql {
  const { url, path } = postgresTarget(databaseUrl);
  return postgres(url, path ? { ...options, path } : options);
}

/** A postgres.js client of DATABASE_URL. */
export function openPostgres(options: ClientOptions): postgres.Sql {
  return connectPostgres(process.env.DATABASE_URL!, options);
}
