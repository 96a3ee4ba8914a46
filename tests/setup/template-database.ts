import { randomBytes } from "node:crypto";
import type { TestProject } from "vitest/node";
import { databaseUrl, onServer } from "./database-server";

declare module "vitest" {
  export interface ProvidedContext {
    /** On PostgreSQL, the migrated template database each test file's database is copied from. */
    migratedTemplate: string | null;
  }
}

/**
 * On PostgreSQL, migrates one template database before any test file runs; each file then gets a
 * `CREATE DATABASE … TEMPLATE` copy of it (tests/setup/database.ts) instead of migrating its own.
 * PGlite migrates a fresh in-memory database per file: starting one from a dumpDataDir snapshot
 * was 2.9 s faster a file, but the 50 ms event-loop tests of sign-in and of the PDF (SPEC §11),
 * where PGlite's queries run on the test's own loop, failed with it on a loaded machine.
 */
export default async function migrateTemplate(project: TestProject): Promise<(() => Promise<void>) | void> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    project.provide("migratedTemplate", null);
    return;
  }
  const database = `test_template_${process.pid}_${randomBytes(4).toString("hex")}`;
  await onServer(serverUrl, `create database "${database}"`);
  process.env.DATABASE_URL = databaseUrl(serverUrl, database);
  const { closeDb } = await import("@/db");
  try {
    const { migrateDatabase } = await import("@/db/migrate");
    await migrateDatabase();
  } finally {
    await closeDb();
    process.env.DATABASE_URL = serverUrl;
  }
  project.provide("migratedTemplate", database);
  return () => onServer(serverUrl, `drop database if exists "${database}" with (force)`);
}
