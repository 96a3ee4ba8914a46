import { createServer, type RequestListener } from "node:http";
import type { AddressInfo } from "node:net";
import { createApiApp } from "@/lib/api/app";
import { createOnePortListener } from "@/servers/one-port-listener";

/**
 * npm start's one-port listener in this process on a free port, with the API and, in Next's
 * place, `handleNext` (by default one that answers "Next"); `close` stops it.
 */
export async function listenOnePort(handleNext: (...args: Parameters<RequestListener>) => unknown = (_req, res) => res.writeHead(200).end("Next")) {
  const server = createServer(createOnePortListener({ handleNext, apiFetch: createApiApp().fetch, proxyHops: 0, nextInProcess: true }));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}
