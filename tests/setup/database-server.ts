import postgres from "postgres";

/** Runs one statement on the PostgreSQL server at `serverUrl` (creating and dropping test databases). */
export async function onServer(serverUrl: string, statement: string): Promise<void> {
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(statement);
  } finally {
    await admin.end();
  }
}
