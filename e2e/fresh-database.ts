import { onServer } from "../tests/setup/database-server";

/**
 * Each e2e server on PostgreSQL gets a database of its own, named after DATABASE_URL's with the
 * server's number (`<name>_e2e<N>`), dropped and created anew so every run starts from the seed.
 * Prints its URL for e2e/start-server.sh.
 */
const given = new URL(process.env.DATABASE_URL!);
const server = Number(process.env.E2E_SERVER ?? 0);
const name = `${given.pathname.slice(1)}_e2e${server}`;
const maintenance = new URL(given);
maintenance.pathname = "/postgres";
await onServer(maintenance.toString(), `drop database if exists "${name}" with (force)`);
await onServer(maintenance.toString(), `create database "${name}"`);
given.pathname = `/${name}`;
console.log(given.toString());
