import postgres from "postgres";

/** The URL of another database on the same PostgreSQL server as `serverUrl`. */
export function databaseUrl(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

/** Runs one statement on the PostgreSQL server at `serverUrl` (creating and dropping test databases). */
export async function onServer(serverUrl: string, statement: string): Promise<void> {
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(statement);
  } finally {
    await admin.end();
  }
}
