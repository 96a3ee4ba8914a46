import type { AddressInfo } from "node:net";
import { serve, type ServerType } from "@hono/node-server";
import { afterAll, beforeAll } from "vitest";
import { createApiApp } from "@/lib/api/app";

/** Serves the real /v1 app on an ephemeral localhost port for the test file; `api.url(path)`. */
export function startApiServer(options: { clock?: () => number } = {}) {
  let server: ServerType;
  const api = {
    base: "",
    url: (path: string) => `${api.base}${path}`,
    request: (path: string, init: RequestInit & { key?: string; json?: unknown } = {}) => {
      const headers = new Headers(init.headers);
      if (init.key !== undefined) headers.set("X-API-Key", init.key);
      let body = init.body;
      if (init.json !== undefined) {
        headers.set("Content-Type", "application/json");
        body = JSON.stringify(init.json);
      }
      return fetch(api.url(path), { ...init, headers, body });
    },
  };
  beforeAll(async () => {
    await new Promise<void>((resolve) => {
      server = serve({ fetch: createApiApp(options).fetch, port: 0, hostname: "127.0.0.1" }, (info: AddressInfo) => {
        api.base = `http://127.0.0.1:${info.port}`;
        resolve();
      });
      // On a loaded machine, fetch's pool can reuse a connection just as the server's 5 s idle
      // timer closes it (ECONNRESET); a test's pauses (fingerprints, retries) must not count as idling.
      (server as import("node:http").Server).keepAliveTimeout = 60_000;
    });
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return api;
}
