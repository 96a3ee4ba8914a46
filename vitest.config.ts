import path from "node:path";
import { defineConfig } from "vitest/config";

/**
 * Each integration file runs on a database of its own, copied from one migrated database; the
 * servers some of them start are compiled before any runs.
 */
const ON_A_DATABASE = { globalSetup: ["tests/setup/compiled-servers.ts", "tests/setup/template-database.ts"], setupFiles: ["tests/setup/database.ts"] };
/** The usage reads' and the audit log's files (docs/features/usage-analytics.md, audit-log.md), run again with ClickHouse answering them (docs/features/analytics-store.md). */
const ANALYTICS_READ_FILES = [
  "tests/usage-query.test.ts",
  "tests/api-usage.test.ts",
  "tests/usage-page.test.ts",
  "tests/audit-log.test.ts",
  "tests/analytics-reads.test.ts",
];
/** The 50 ms event-loop tests (sign-in, the PDF) and the fuzz suites' CPU budget per case. */
const MEASURING_FILES = ["tests/api-pdf.test.ts", "tests/sign-in-throttling.test.ts", "tests/fuzz-*.test.ts"];

const onPostgres = Boolean(process.env.DATABASE_URL);

export default defineConfig({
  resolve: {
    alias: {
      "@": path.resolve(import.meta.dirname),
      // The workspace packages' sources, as their "source" export condition names them (packages/*/package.json).
      "@invoicing/sdk": path.resolve(import.meta.dirname, "packages/sdk/src/index.ts"),
      // `server-only` throws outside React Server Components; tests call server code directly.
      "server-only": path.resolve(import.meta.dirname, "tests/setup/empty-module.ts"),
    },
  },
  test: {
    environment: "node",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // On PostgreSQL the database works in its own process and the tests wait on it (the node
    // workers used 3.4 of 5 minutes' CPU with two): a third file fills the wait.
    maxWorkers: onPostgres ? 3 : 2,
    // next-auth imports "next/server" without an extension, which only a bundler resolves.
    server: { deps: { inline: ["next-auth"] } },
    projects: [
      // Rules that need no database: run once, whichever database the run is for (see .ci/run).
      { extends: true, test: { name: "unit", include: ["lib/**/*.test.ts", "tests/unit/**/*.test.ts", "packages/*/src/**/*.test.ts"] } },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["tests/**/*.test.ts"],
          exclude: ["tests/unit/**", "tests/analytics-reads.test.ts", ...MEASURING_FILES],
          ...ON_A_DATABASE,
        },
      },
      // ClickHouse embedded in each file's process (chdb: `npm test` installs it first), through the client a server uses.
      {
        extends: true,
        test: {
          name: "clickhouse",
          include: ANALYTICS_READ_FILES,
          env: { CLICKHOUSE_URL: "chdb:memory" },
          ...ON_A_DATABASE,
          setupFiles: [...ON_A_DATABASE.setupFiles, "tests/setup/clickhouse.ts"],
        },
      },
      // The files that measure their own event loop or CPU time, after the rest, so no other test
      // file competes for the two cores while they measure (on PGlite one at a time, as its queries
      // run on the test's loop; each migrates an empty database there, tests/setup/database.ts).
      {
        extends: true,
        test: {
          name: "integration-measured",
          include: MEASURING_FILES,
          provide: { freshPglite: true },
          // On PostgreSQL the queries run off the test's loop, and two files at a time measure true.
          maxWorkers: onPostgres ? 2 : 1,
          sequence: { groupOrder: 1 },
          ...ON_A_DATABASE,
        },
      },
    ],
  },
});
