import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { afterAll, beforeAll, vi } from "vitest";
import { testSession } from "../helpers/session";

// Identity comes from next-auth's cookie in the app; tests say who is acting with actAs().
vi.mock("@/lib/session", () => ({
  currentUserId: async () => testSession.userId,
  currentSession: async () => (testSession.userId ? { userId: testSession.userId, sessionId: "ses_test" } : null),
  currentClient: async () => testSession.client,
}));
vi.mock("next/cache", () => ({ revalidatePath: () => {}, revalidateTag: () => {} }));
// Actions that write a link (invitations) take the site's address from here, as no request carries a Host header.
process.env.PUBLIC_BASE_URL ??= "http://localhost:3000";

const serverUrl = process.env.DATABASE_URL;
let databaseName: string | null = null;

if (serverUrl) {
  // A fresh database per test file on the PostgreSQL server, dropped afterwards.
  databaseName = `test_${process.pid}_${randomBytes(4).toString("hex")}`;
  const url = new URL(serverUrl);
  url.pathname = `/${databaseName}`;
  process.env.DATABASE_URL = url.toString();
  process.env.DATABASE_POOL_SIZE ??= "20";
} else {
  process.env.PGLITE_DIR = "memory://";
}

async function onServer(statement: string) {
  const admin = postgres(serverUrl!, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(statement);
  } finally {
    await admin.end();
  }
}

beforeAll(async () => {
  if (databaseName) await onServer(`create database "${databaseName}"`);
  const { migrateDatabase } = await import("@/db/migrate");
  await migrateDatabase();
});

afterAll(async () => {
  const { closeDb } = await import("@/db");
  await closeDb();
  if (databaseName) await onServer(`drop database if exists "${databaseName}" with (force)`);
});
