import { connectPostgres, parsePostgresUrl } from "../../db/postgres-url";

/** The URL of another database on the same PostgreSQL server as `serverUrl` (a TCP or Unix-socket URL, db/postgres-url.ts). */
export function databaseUrl(serverUrl: string, database: string): string {
  const url = parsePostgresUrl(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

/** Runs one statement on the PostgreSQL server at `serverUrl` (creating and dropping test and bench databases). */
export async function onServer(serverUrl: string, statement: string): Promise<void> {
  const admin = connectPostgres(serverUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(statement);
  } finally {
    await admin.end();
  }
}
