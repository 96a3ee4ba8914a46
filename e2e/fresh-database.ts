import { databaseUrl, onServer } from "../tests/setup/database-server";
import { parsePostgresUrl } from "../db/postgres-url";

/**
 * Each e2e server on PostgreSQL gets a database of its own, named after DATABASE_URL's with the
 * server's number (`<name>_e2e<N>`), dropped and created anew so every run starts from the seed.
 * Prints its URL for e2e/start-server.sh.
 */
const given = process.env.DATABASE_URL!;
const name = `${parsePostgresUrl(given).pathname.slice(1)}_e2e${Number(process.env.E2E_SERVER ?? 0)}`;
const maintenance = databaseUrl(given, "postgres");
await onServer(maintenance, `drop database if exists "${name}" with (force)`);
await onServer(maintenance, `create database "${name}"`);
console.log(databaseUrl(given, name));
