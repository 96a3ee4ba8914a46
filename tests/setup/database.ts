import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, inject, vi } from "vitest";
import { testSession } from "../helpers/session";
import { databaseUrl, onServer } from "./database-server";

// Identity comes from next-auth's cookie in the app; tests say who is acting with actAs().
vi.mock("@/lib/session", () => {
  const session = () => ({
    userId: testSession.userId!,
    sessionId: testSession.sessionId,
    authenticatedAt: new Date(Date.now() - testSession.authenticatedMsAgo),
    ssoOrgId: testSession.ssoOrgId,
  });
  return {
    currentUserId: async () => (testSession.userId && !testSession.secondFactorPending ? testSession.userId : null),
    currentSession: async () => (testSession.userId && !testSession.secondFactorPending ? session() : null),
    sessionAwaitingSecondFactor: async () => (testSession.userId && testSession.secondFactorPending ? session() : null),
    currentClient: async () => testSession.client,
  };
});
vi.mock("next/cache", () => ({ revalidatePath: () => {}, revalidateTag: () => {} }));
// Actions that write a link (invitations) take the site's address from here, as no request carries a Host header.
process.env.PUBLIC_BASE_URL ??= "http://localhost:3000";
// Signed links (unsubscribe) need the secret a server generates or is given at start.
process.env.AUTH_SECRET ??= "tests-only-secret-for-signed-links-0123456789";

// Each file gets a database of its own, a copy of the one tests/setup/template-database.ts
// migrated: on PostgreSQL a template copy; on PGlite one loaded from its snapshot, except for the
// files that measure their own event loop or CPU (freshPglite, vitest.config.ts: no template),
// which migrate an empty one: PGlite runs its queries on the test's own loop, and from a snapshot
// (an ANALYZE after loading included) the 50 ms PDF test measured 59 and 80 ms on a loaded
// machine, 25-32 ms migrated.
const template = inject("migratedTemplate");
const serverUrl = process.env.DATABASE_URL;
let databaseName: string | null = null;

if (serverUrl) {
  databaseName = `test_${process.pid}_${randomBytes(4).toString("hex")}`;
  process.env.DATABASE_URL = databaseUrl(serverUrl, databaseName);
  // The production default: three test processes and the servers a file spawns
  // (tests/helpers/server-process.ts) share one PostgreSQL of max_connections 100.
  process.env.DATABASE_POOL_SIZE ??= "10";
} else {
  process.env.PGLITE_DIR = "memory://";
}

beforeAll(async () => {
  if (template?.kind === "postgres") await onServer(serverUrl!, `create database "${databaseName}" template "${template.database}"`);
  // Only this process's own client starts from the snapshot: servers a test spawns inherit the environment.
  if (template?.kind === "pglite") process.env.PGLITE_SNAPSHOT = template.snapshotFile;
  try {
    // On a copy nothing is left to migrate; the request log's partitions run as at every start.
    const { migrateDatabase } = await import("@/db/migrate");
    await migrateDatabase();
  } finally {
    delete process.env.PGLITE_SNAPSHOT;
  }
});

afterAll(async () => {
  const { closeDb } = await import("@/db");
  await closeDb();
  if (databaseName) await onServer(serverUrl!, `drop database if exists "${databaseName}" with (force)`);
});
