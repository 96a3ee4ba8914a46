import net, { type AddressInfo } from "node:net";
import postgres from "postgres";
import { describe, expect, it } from "vitest";

/**
 * A relay to PostgreSQL that, the first time a client sends `text`, terminates that client's backend
 * (pg_terminate_backend, as an operator or a failover does) before passing the text on.
 */
async function terminatingRelay(serverUrl: string, text: string) {
  const server = new URL(serverUrl);
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  let armed = true;
  const sockets = new Set<net.Socket>();
  const relay = net.createServer((client) => {
    const upstream = net.connect(Number(server.port || 5432), server.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
      socket.on("error", () => socket.destroy());
    }
    upstream.pipe(client);
    upstream.on("close", () => client.destroy());
    client.on("data", async (chunk: Buffer) => {
      if (armed && chunk.includes(text)) {
        armed = false;
        client.pause();
        await admin`select pg_terminate_backend(pid) from pg_stat_activity where client_port = ${upstream.localPort!}`;
        client.resume();
      }
      upstream.write(chunk);
    });
  });
  await new Promise<void>((resolve) => relay.listen(0, "127.0.0.1", resolve));
  const url = new URL(serverUrl);
  url.host = `127.0.0.1:${(relay.address() as AddressInfo).port}`;
  return {
    url: url.toString(),
    terminated: () => !armed,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => relay.close(resolve));
      await admin.end();
    },
  };
}

// A new connection's first statement is postgres.js's own query of the array types. A backend
// terminated during it (a failover, an operator) once ended the process with an unhandled rejection
// and failed the next connection's first query with the old error (patches/postgres+3.4.9.patch,
// docs/operations.md#when-postgresql-goes-away). It needs a server whose backends can be terminated.
describe.skipIf(!process.env.DATABASE_URL)("a backend terminated while the client reads its array types", () => {
  it("costs no unhandled rejection: the client reconnects, reads the types and answers", async () => {
    const relay = await terminatingRelay(process.env.DATABASE_URL!, "pg_catalog.pg_type");
    const client = postgres(relay.url, { max: 1, onnotice: () => {} });
    const unhandled: unknown[] = [];
    const recordUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", recordUnhandled);
    try {
      // The query that opened the connection waits for the new one and is answered there.
      expect((await client`select 1 as one`)[0]).toEqual({ one: 1 });
      expect(relay.terminated()).toBe(true);
      // The new connection read the array types: an array comes back as an array, not as its text.
      expect((await client`select 2 as two, array[1, 2]::int[] as pair`)[0]).toEqual({ two: 2, pair: [1, 2] });
      // An unhandled rejection is reported once the microtasks after it have run.
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", recordUnhandled);
      await client.end();
      await relay.close();
    }
  });
});
