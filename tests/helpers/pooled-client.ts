import { Agent, request, type IncomingHttpHeaders } from "node:http";
import { afterAll } from "vitest";

export interface PooledRequest {
  method?: string;
  headers?: Record<string, string>;
  /** Sent in one piece with its Content-Length, or in chunks (Transfer-Encoding: chunked). */
  body?: string | Buffer | Buffer[];
  /** The request target as written on the request line (absolute form, say); the path by default. */
  target?: string;
}

function toHeaders(incoming: IncomingHttpHeaders): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming)) for (const one of [value ?? []].flat()) headers.append(name, one);
  return headers;
}

/**
 * An HTTP client as API SDKs are: one keep-alive agent whose connections go from request to
 * request (at most `sockets` at once), and no retry, so a request sent into a connection the server
 * closed without saying so fails with ECONNRESET. Answers as fetch does; the agent is closed after
 * the test file.
 */
export function pooledClient(base: () => string, sockets = 4) {
  const agent = new Agent({ keepAlive: true, maxSockets: sockets });
  afterAll(() => agent.destroy());
  const client = {
    /** Requests that went out on a connection an earlier one had used: the pool at work. */
    reused: 0,
    fetch(path: string, init: PooledRequest = {}): Promise<Response> {
      const { hostname, port } = new URL(base());
      const method = init.method ?? "GET";
      const headers = { ...init.headers };
      if (init.body !== undefined && !Array.isArray(init.body)) headers["Content-Length"] = String(Buffer.byteLength(init.body));
      return new Promise((resolve, reject) => {
        let answered = false;
        const outgoing = request({ agent, hostname, port, method, path: init.target ?? path, headers }, (incoming) => {
          answered = true;
          if (outgoing.reusedSocket) client.reused++;
          const chunks: Buffer[] = [];
          incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
          incoming.on("error", reject);
          incoming.on("end", () => {
            const status = incoming.statusCode!;
            const body = method === "HEAD" || status === 204 || status === 304 ? null : Buffer.concat(chunks);
            resolve(new Response(body, { status, headers: toHeaders(incoming.headers) }));
          });
        });
        // The server may answer (413) and stop reading before the whole body is written.
        outgoing.on("error", (error) => {
          if (!answered) reject(error);
        });
        for (const chunk of [init.body ?? []].flat()) outgoing.write(chunk);
        outgoing.end();
      });
    },
  };
  return client;
}
