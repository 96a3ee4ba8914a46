import net from "node:net";
import type { AddressInfo } from "node:net";

/**
 * A TCP proxy to a local server that, for the first `drops` connections, forwards the request and
 * closes the client's socket as the answer starts to come back: the server did the work, the
 * client never hears of it (a connection lost on the way back). Later connections pass through.
 */
export async function droppingProxy(target: string, drops = 1) {
  const { hostname, port } = new URL(target);
  let dropsLeft = drops;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const drop = dropsLeft > 0;
    if (drop) dropsLeft--;
    const upstream = net.connect(Number(port), hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
      socket.on("error", () => socket.destroy());
    }
    client.pipe(upstream);
    upstream.on("data", (chunk) => {
      if (!drop) return void client.write(chunk);
      client.destroy();
      upstream.destroy();
    });
    upstream.on("end", () => client.end());
    client.on("close", () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    dropped: () => drops - dropsLeft,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
