/**
 * ClickHouse embedded in the test's process (chdb, installed by `npm run clickhouse:embedded`,
 * which `npm test` runs first), reached through the same `@clickhouse/client` a server uses.
 * Its data lives in memory and ends with the process: one test file's.
 */
export const EMBEDDED_CLICKHOUSE = "chdb:memory";
