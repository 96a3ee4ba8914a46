import postgres from "postgres";
import { describe, expect, it } from "vitest";
import { cuttableRelay } from "./helpers/database-relay";
import { openPostgres } from "@/db/postgres-url";

const TYPE_QUERY = "pg_catalog.pg_type";

// A new connection's first statement is postgres.js's own query of the array types. A backend
// terminated during it (a failover, an operator) once ended the process with an unhandled rejection
// and failed the next connection's first query with the old error (patches/postgres+3.4.9.patch,
// docs/operations.md#when-postgresql-goes-away). It needs a server whose backends can be terminated.
describe.skipIf(!process.env.DATABASE_URL)("a backend terminated while the client reads its array types", () => {
  it("costs no unhandled rejection: the client reconnects, reads the types and answers", async () => {
    const url = new URL(process.env.DATABASE_URL!);
    const admin = postgres(url.toString(), { max: 1, onnotice: () => {} });
    let terminated = false;
    // The first time a client sends the type query, its backend is terminated before the query reaches it.
    const relay = await cuttableRelay(
      { host: url.hostname, port: Number(url.port || 5432) },
      {
        beforeSending: async (chunk, upstream) => {
          if (terminated || !chunk.includes(TYPE_QUERY)) return;
          terminated = true;
          await admin`select pg_terminate_backend(pid) from pg_stat_activity where client_port = ${upstream.localPort!}`;
        },
      },
    );
    url.host = `127.0.0.1:${relay.port}`;
    const client = postgres(url.toString(), { max: 1, onnotice: () => {} });
    const unhandled: unknown[] = [];
    const recordUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", recordUnhandled);
    try {
      // The query that opened the connection waits for the new one and is answered there.
      expect((await client`select 1 as one`)[0]).toEqual({ one: 1 });
      expect(terminated).toBe(true);
      // The new connection read the array types: an array comes back as an array, not as its text.
      expect((await client`select 2 as two, array[1, 2]::int[] as pair`)[0]).toEqual({ two: 2, pair: [1, 2] });
      // An unhandled rejection is reported once the microtasks after it have run.
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", recordUnhandled);
      await client.end();
      await relay.close();
      await admin.end();
    }
  });
});

// libpq's way of naming a Unix socket, which postgres.js reads otherwise (db/postgres-url.ts).
describe.skipIf(!process.env.DATABASE_URL)("a DATABASE_URL naming a Unix socket", () => {
  it("connects through the socket", async () => {
    const tcp = process.env.DATABASE_URL!;
    const admin = postgres(tcp, { max: 1, onnotice: () => {} });
    const [setting] = await admin<{ directories: string }[]>`select current_setting('unix_socket_directories') as directories`;
    await admin.end();
    const url = new URL(tcp);
    process.env.DATABASE_URL = `postgresql://${url.username}@localhost:${url.port || 5432}${url.pathname}?host=${setting!.directories.split(",")[0]!.trim()}`;
    const client = openPostgres({ max: 1, onnotice: () => {} });
    try {
      // No client address: the connection came through the socket, not over TCP.
      expect((await client`select inet_client_addr() as address, current_database() as database`)[0]).toEqual({
        address: null,
        database: url.pathname.slice(1),
      });
    } finally {
      process.env.DATABASE_URL = tcp;
      await client.end();
    }
  });
});
