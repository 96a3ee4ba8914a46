import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import type { TestProject } from "vitest/node";
import { databaseUrl, onServer } from "./database-server";

declare module "vitest" {
  export interface ProvidedContext {
    /**
     * The migrated database each test file starts from: a PGlite snapshot file, or a PostgreSQL
     * template database's name; null where each file migrates an empty PGlite database itself.
     */
    migratedTemplate: { kind: "pglite"; snapshotFile: string } | { kind: "postgres"; database: string } | null;
    /** Set by the project of the files that measure their own event loop or CPU (vitest.config.ts). */
    freshPglite?: boolean;
  }
}

async function migrateOnce(): Promise<void> {
  const { migrateDatabase } = await import("@/db/migrate");
  await migrateDatabase();
}

/**
 * Migrates one database before any test file of the project runs; each file then starts from a
 * copy of it (tests/setup/database.ts) instead of migrating its own: PostgreSQL copies a template
 * database with CREATE DATABASE … TEMPLATE, PGlite loads a snapshot of its data directory. On
 * PGlite the measuring project's files migrate their own (freshPglite), so it makes no snapshot.
 */
export default async function migrateTemplate(project: TestProject): Promise<() => Promise<void>> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl && project.config.provide?.freshPglite) {
    project.provide("migratedTemplate", null);
    return async () => {};
  }
  const { closeDb, databaseHandle } = await import("@/db");
  if (serverUrl) {
    const database = `test_template_${process.pid}_${randomBytes(4).toString("hex")}`;
    await onServer(serverUrl, `create database "${database}"`);
    process.env.DATABASE_URL = databaseUrl(serverUrl, database);
    try {
      await migrateOnce();
    } finally {
      await closeDb();
      process.env.DATABASE_URL = serverUrl;
    }
    project.provide("migratedTemplate", { kind: "postgres", database });
    return () => onServer(serverUrl, `drop database if exists "${database}" with (force)`);
  }
  const previousDir = process.env.PGLITE_DIR;
  process.env.PGLITE_DIR = "memory://";
  const snapshotFile = path.join(os.tmpdir(), `invoicing-test-template-${process.pid}-${randomBytes(4).toString("hex")}.tar`);
  try {
    await migrateOnce();
    const snapshot = await databaseHandle().pglite!.dumpDataDir("none");
    fs.writeFileSync(snapshotFile, Buffer.from(await snapshot.arrayBuffer()));
  } finally {
    await closeDb();
    if (previousDir === undefined) delete process.env.PGLITE_DIR;
    else process.env.PGLITE_DIR = previousDir;
  }
  project.provide("migratedTemplate", { kind: "pglite", snapshotFile });
  return async () => fs.rmSync(snapshotFile, { force: true });
}
