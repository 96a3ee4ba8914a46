import type { IncomingMessage, ServerResponse } from "node:http";
import { createProxyServer } from "httpxy";

/** What a front worker answers when no dashboard worker could take the request. */
const UNAVAILABLE_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Dashboard unavailable</title></head><body><h1>The dashboard is restarting</h1><p>Try again in a few seconds. The API at /v1 is not affected.</p></body></html>`;

/**
 * Hands a request, as the front worker's listener left it (lib/one-port-listener.ts: X-Forwarded-For
 * naming the client alone, proxy headers only from proxies of ours), to the dashboard workers
 * behind `socketPath`, streaming both ways over kept-alive connections (httpxy, a maintained fork
 * of node-http-proxy: hop-by-hop headers, aborts and chunked bodies are its job). The Host header
 * goes as the client sent it. A request no dashboard worker takes gets a 502 page; one that fails
 * after its answer began is cut, so the client sees a broken response rather than a wrong one.
 */
export function proxyToDashboard(socketPath: string): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const proxy = createProxyServer({ target: { socketPath }, xfwd: false });
  return (req, res) =>
    proxy.web(req, res).catch((error: unknown) => {
      if (res.headersSent) {
        res.destroy(error instanceof Error ? error : undefined);
        return;
      }
      console.error(`The dashboard did not answer ${req.method} ${req.url}`, error);
      res.writeHead(502, { "Content-Type": "text/html; charset=utf-8", "Retry-After": "5", "Cache-Control": "no-store" });
      res.end(UNAVAILABLE_PAGE);
    });
}
