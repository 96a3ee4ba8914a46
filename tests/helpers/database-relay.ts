import net, { type AddressInfo } from "node:net";
import { startServerProcess } from "./server-process";

/**
 * A TCP relay to PostgreSQL that can be cut (every connection dropped, new ones refused) and restored.
 * `beforeSending` sees each chunk a client sends, with its connection to the server, before the chunk
 * goes on (the client's next chunks wait for it).
 */
export async function cuttableRelay(
  target: { host: string; port: number },
  { beforeSending }: { beforeSending?: (chunk: Buffer, upstream: net.Socket) => Promise<void> } = {},
) {
  const sockets = new Set<net.Socket>();
  let cut = false;
  const relay = net.createServer((client) => {
    if (cut) return void client.destroy();
    const upstream = net.connect(target.port, target.host);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
      socket.on("error", () => socket.destroy());
    }
    upstream.pipe(client);
    // A backend gone is the client's connection gone, at once, as without the relay.
    upstream.on("close", () => client.destroy());
    if (!beforeSending) return void client.pipe(upstream);
    client.on("data", async (chunk: Buffer) => {
      client.pause();
      await beforeSending(chunk, upstream);
      upstream.write(chunk);
      client.resume();
    });
  });
  await new Promise<void>((resolve) => relay.listen(0, "127.0.0.1", resolve));
  return {
    port: (relay.address() as AddressInfo).port,
    cut: () => {
      cut = true;
      for (const socket of sockets) socket.destroy();
    },
    restore: () => void (cut = false),
    close: () => new Promise((resolve) => relay.close(resolve)),
  };
}

/** An API server (`npm run start:api`) whose database connections go through a cuttable relay to this run's PostgreSQL. */
export async function apiServerBehindRelay(env: Record<string, string> = {}) {
  const url = new URL(process.env.DATABASE_URL!);
  const relay = await cuttableRelay({ host: url.hostname, port: Number(url.port || 5432) });
  url.host = `127.0.0.1:${relay.port}`;
  const server = await startServerProcess("api-server.ts", { ...env, DATABASE_URL: url.toString() });
  return {
    server,
    relay,
    stop: async () => {
      relay.restore();
      await server.stop();
      await relay.close();
    },
  };
}
