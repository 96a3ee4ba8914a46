import { createServer, type RequestListener } from "node:http";
import type { AddressInfo } from "node:net";
import { createApiApp } from "@/lib/api/app";
import { createOnePortListener } from "@/servers/one-port-listener";

/**
 * npm start's one-port listener in this process on a free port, with the API and, in Next's
 * place, `handleNext` (by default one that answers "Next"), trusting `proxyHops` proxies of ours
 * (none by default); `close` stops it.
 */
export async function listenOnePort(options: { handleNext?: (...args: Parameters<RequestListener>) => unknown; proxyHops?: number } = {}) {
  const { handleNext = (_req, res) => res.writeHead(200).end("Next"), proxyHops = 0 } = options;
  const server = createServer(createOnePortListener({ handleNext, apiFetch: createApiApp().fetch, proxyHops, nextInProcess: true }));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    base: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}
