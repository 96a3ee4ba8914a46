import type { IncomingMessage, ServerResponse } from "node:http";
import { createProxyServer } from "httpxy";
import { log } from "@/core/log";

/** What a front worker answers when no dashboard worker could take the request. */
const UNAVAILABLE_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Dashboard unavailable</title>
<style>body{margin:0;min-height:100vh;display:grid;place-items:center;font:16px/1.5 system-ui,sans-serif;color:#18181b;background:#fafafa}main{max-width:28rem;padding:1.5rem}h1{font-size:1.25rem;margin:0 0 .5rem}p{margin:0;color:#52525b}</style></head>
<body><main><h1>The dashboard is restarting</h1><p>Try again in a few seconds. The API at <code>/v1</code> is not affected.</p></main></body></html>`;

/**
 * Hands a request, as the front worker's listener left it (servers/one-port-listener.ts: X-Forwarded-For
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
      log.error({ err: error, method: req.method }, "The dashboard did not answer");
      res.writeHead(502, { "Content-Type": "text/html; charset=utf-8", "Retry-After": "5", "Cache-Control": "no-store" });
      res.end(UNAVAILABLE_PAGE);
    });
}
