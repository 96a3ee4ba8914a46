import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import { connect, type AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createApiApp } from "@/lib/api/app";
import { MAX_BODY_BYTES } from "@/lib/api/body-limit";
import { clientOf } from "@/lib/auth/client";
import { trustedProxyHops } from "@/lib/client-address";
import { createOnePortListener } from "@/servers/one-port-listener";
import { startApiServer } from "./helpers/api-server";
import { createOrg, insertKey } from "./helpers/factories";
import { pooledClient, type PooledRequest } from "./helpers/pooled-client";

// The HTTP edges of /v1 on both servers: server.ts's one-port listener (Next replaced by a handler
// that records what reached it) and the API alone as api-server.ts serves it. Requests are written
// through node:http, on a pooled keep-alive agent like an SDK's (tests/helpers/pooled-client.ts).

const reachedNext: IncomingHttpHeaders[] = [];
const handleNext = (req: { headers: IncomingHttpHeaders }, res: { writeHead: (status: number) => { end: (body: string) => void } }) => {
  reachedNext.push({ ...req.headers });
  res.writeHead(200).end("Next");
};
// server.ts builds its listener from the environment once, at start; here at each request, so a
// test can stub TRUST_PROXY for both servers alike.
const apiFetch = createApiApp().fetch;
const onePortServer: Server = createServer((req, res) =>
  createOnePortListener({ handleNext, apiFetch, proxyHops: trustedProxyHops(), nextInProcess: true })(req, res),
);
const apiAlone = startApiServer();

let onePortBase = "";
let fullKey = "";
let readOnlyKey = "";
let restrictedKey = "";
let orgId = "";

beforeAll(async () => {
  await new Promise<void>((resolve) => onePortServer.listen(0, "127.0.0.1", resolve));
  onePortServer.keepAliveTimeout = 60_000;
  onePortBase = `http://127.0.0.1:${(onePortServer.address() as AddressInfo).port}`;
  const org = await createOrg("enterprise", { rateLimitPerMinute: 100_000 });
  orgId = org.id;
  fullKey = (await insertKey(org.id)).value;
  readOnlyKey = (await insertKey(org.id, { access: "read_only" })).value;
  restrictedKey = (await insertKey(org.id, { access: "restricted", scopes: { customers: "read" } })).value;
});
afterAll(async () => {
  await new Promise((resolve) => onePortServer.close(resolve));
});
afterEach(() => {
  vi.unstubAllEnvs();
});

interface Answer {
  status: number;
  headers: Headers;
  body: string;
}

interface Send {
  key?: string;
  headers?: Record<string, string>;
  body?: PooledRequest["body"];
  target?: string;
}

function sender(base: () => string) {
  // One connection, kept alive between requests: each request goes out on the previous one's socket.
  const client = pooledClient(base, 1);
  return async (method: string, path: string, options: Send = {}): Promise<Answer> => {
    const headers = {
      ...(options.key ? { "X-API-Key": options.key } : {}),
      ...(options.body ? { "Content-Type": "application/json" } : {}),
      ...options.headers,
    };
    const response = await client.fetch(path, { method, headers, body: options.body, target: options.target });
    return { status: response.status, headers: response.headers, body: await response.text() };
  };
}

/**
 * Writes `head` and `body` on a new connection and nothing more, and reads until the server ends
 * it: the answer's text, or a failure when the connection is reset (ECONNRESET) or nothing ends it
 * within `withinMs`.
 */
function exchangeRaw(base: string, head: string, body: string, withinMs: number): Promise<string> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(`${head}\r\n${body}`));
    let text = "";
    socket.setEncoding("utf8");
    socket.setTimeout(withinMs, () => {
      socket.destroy();
      reject(new Error(`The connection was not ended within ${withinMs} ms; read so far: ${JSON.stringify(text)}`));
    });
    let ended = false;
    socket.on("data", (chunk: string) => (text += chunk));
    socket.on("end", () => {
      ended = true;
      socket.end();
    });
    socket.on("error", reject);
    // Closed after the server's end (a FIN), not by a reset: the client read the whole answer.
    socket.on("close", (hadError) =>
      ended && !hadError ? resolve(text) : reject(new Error(`The connection closed without an end; read: ${JSON.stringify(text)}`)),
    );
  });
}

const errorCode = (answer: Answer) => (JSON.parse(answer.body) as { error: { code: string } }).error.code;
const OVER_LIMIT = Buffer.alloc(MAX_BODY_BYTES + 1024, " ");

describe.each([
  ["server.ts (one port)", () => onePortBase],
  ["api-server.ts (the API alone)", () => apiAlone.base],
])("%s", (_server, base) => {
  const send = sender(base);

  describe("the client address behind TRUST_PROXY", () => {
    const fromProxyOnly = async (forwardedFor: string) => {
      const { value } = await insertKey(orgId, { ipAllowlist: ["10.9.9.9"] });
      return send("GET", "/v1/customers", { key: value, headers: { "X-Forwarded-For": forwardedFor } });
    };

    it("is the right-most X-Forwarded-For entry, what our proxy saw, never the client's own first one", async () => {
      vi.stubEnv("TRUST_PROXY", "true");
      const spoofed = await fromProxyOnly("10.9.9.9, 127.0.0.1");
      expect(spoofed.status).toBe(403);
      expect(errorCode(spoofed)).toBe("ip_not_allowed");
      expect(spoofed.body).toContain("from 127.0.0.1");
      expect((await fromProxyOnly("127.0.0.1, 10.9.9.9")).status).toBe(200);
    });

    it("is the entry TRUST_PROXY_HOPS places from the right when several proxies of ours stand in front", async () => {
      vi.stubEnv("TRUST_PROXY", "true");
      vi.stubEnv("TRUST_PROXY_HOPS", "2");
      expect((await fromProxyOnly("10.9.9.9, 192.0.2.7")).status).toBe(200);
      expect((await fromProxyOnly("10.9.9.9, 192.0.2.1, 192.0.2.7")).status).toBe(403);
    });
  });

  describe("a body refused for its size", () => {
    it("is answered 413 with Connection: close, and the pooled client's next request succeeds (Content-Length)", async () => {
      for (let round = 0; round < 3; round++) {
        const refused = await send("POST", "/v1/customers", { key: fullKey, body: OVER_LIMIT });
        expect(refused.status).toBe(413);
        expect(errorCode(refused)).toBe("payload_too_large");
        expect(refused.headers.get("connection")).toBe("close");
        expect((await send("GET", "/v1/customers", { key: fullKey })).status).toBe(200);
      }
    });

    it("is refused on a Content-Length far beyond what is sent, at once, and the connection ends cleanly", async () => {
      const { host } = new URL(base());
      const head = [
        "POST /v1/customers HTTP/1.1",
        `Host: ${host}`,
        `X-API-Key: ${fullKey}`,
        "Content-Type: application/json",
        "Content-Length: 999999999",
        "",
      ].join("\r\n");
      // Far less than the request timeout (300 s) a server without the fix answers at.
      const answer = await exchangeRaw(base(), head, '{"name":"Lying Ltd"}', 5_000);
      expect(answer).toMatch(/^HTTP\/1\.1 413 /);
      expect(answer).toMatch(/\r\nconnection: close\r\n/i);
      expect(answer).toContain('"code":"payload_too_large"');
    });

    it("is answered 413 with Connection: close, and the pooled client's next request succeeds (chunked)", async () => {
      const pieces = Array.from({ length: 17 }, () => Buffer.alloc(64 * 1024, " "));
      for (let round = 0; round < 3; round++) {
        const refused = await send("POST", "/v1/customers", { key: fullKey, body: pieces });
        expect(refused.status).toBe(413);
        expect(refused.headers.get("connection")).toBe("close");
        expect((await send("GET", "/v1/customers", { key: fullKey })).status).toBe(200);
      }
    });
  });

  describe("requests no route answers, and odd request targets", () => {
    it("serves an absolute-form request target as its path instead of redirecting to itself", async () => {
      const answer = await send("GET", "/v1/customers", { key: fullKey, target: `${base()}/v1/customers?limit=1` });
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body)).toMatchObject({ object: "list" });
    });

    it("answers /V1/invoices with a JSON 404 route_not_found carrying its request id, not the sign-in page", async () => {
      const before = reachedNext.length;
      const answer = await send("GET", "/V1/invoices", { key: fullKey });
      expect(answer.status).toBe(404);
      expect(JSON.parse(answer.body)).toEqual({
        error: { code: "route_not_found", message: expect.any(String), request_id: answer.headers.get("x-request-id") },
      });
      expect(reachedNext.length).toBe(before);
    });

    it("answers OPTIONS with the same 404 route_not_found for a read-only key as for a full one", async () => {
      for (const key of [fullKey, readOnlyKey, restrictedKey]) {
        const answer = await send("OPTIONS", "/v1/invoices", { key });
        expect({ status: answer.status, code: errorCode(answer) }).toEqual({ status: 404, code: "route_not_found" });
      }
    });

    it("answers a trailing slash with the same 404 route_not_found for a restricted key as for a full one", async () => {
      for (const key of [fullKey, readOnlyKey, restrictedKey]) {
        for (const [method, path] of [
          ["GET", "/v1/invoices/"],
          ["POST", "/v1/customers/"],
          ["GET", "/v1/no-such-resource"],
        ] as const) {
          const answer = await send(method, path, { key });
          expect({ method, path, status: answer.status, code: errorCode(answer) }).toEqual({ method, path, status: 404, code: "route_not_found" });
        }
      }
    });

    it("still refuses a real route beyond the key's access with 403 before its handler", async () => {
      const refused = await send("GET", "/v1/invoices", { key: restrictedKey });
      expect({ status: refused.status, code: errorCode(refused) }).toEqual({ status: 403, code: "api_key_scope_insufficient" });
      const readOnly = await send("DELETE", "/v1/customers/cus_x", { key: readOnlyKey });
      expect({ status: readOnly.status, code: errorCode(readOnly) }).toEqual({ status: 403, code: "api_key_scope_insufficient" });
      expect((await send("GET", "/v1/invoices/", {})).status).toBe(401);
    });
  });
});

describe("what server.ts hands the dashboard (Next.js)", () => {
  const send = sender(() => onePortBase);
  const nextSaw = async (headers: Record<string, string>) => {
    await send("GET", "/signin", { headers });
    return reachedNext.at(-1)!;
  };

  it("gives sign-in throttling the address the gateway uses: the right-most X-Forwarded-For entry under TRUST_PROXY", async () => {
    vi.stubEnv("TRUST_PROXY", "true");
    const headers = await nextSaw({ "X-Forwarded-For": "10.9.9.9, 127.0.0.1" });
    expect(clientOf(new Headers(headers as Record<string, string>)).ip).toBe("127.0.0.1");
  });

  it("drops the client's own X-Forwarded-For, -Host and -Proto without TRUST_PROXY", async () => {
    const headers = await nextSaw({ "X-Forwarded-For": "10.9.9.9", "X-Forwarded-Host": "evil.example", "X-Forwarded-Proto": "https" });
    expect(clientOf(new Headers(headers as Record<string, string>)).ip).toBe("127.0.0.1");
    expect(headers["x-forwarded-host"]).toBeUndefined();
    expect(headers["x-forwarded-proto"]).toBeUndefined();
  });

  it("keeps X-Forwarded-Host from a proxy of ours under TRUST_PROXY", async () => {
    vi.stubEnv("TRUST_PROXY", "true");
    expect((await nextSaw({ "X-Forwarded-Host": "app.example.com" }))["x-forwarded-host"]).toBe("app.example.com");
  });

  it("serves an absolute-form request target to Next.js as its path, on the target's host", async () => {
    const before = reachedNext.length;
    await send("GET", "/signin", { target: `http://app.example.com/signin?next=%2Fx` });
    expect(reachedNext.length).toBe(before + 1);
    expect(reachedNext.at(-1)!.host).toBe("app.example.com");
  });
});

describe("TRUST_PROXY_HOPS", () => {
  it("refuses a value that is no number of proxies, and means nothing without TRUST_PROXY", () => {
    expect(trustedProxyHops({ TRUST_PROXY: "true" })).toBe(1);
    expect(trustedProxyHops({ TRUST_PROXY: "true", TRUST_PROXY_HOPS: "3" })).toBe(3);
    expect(trustedProxyHops({ TRUST_PROXY_HOPS: "3" })).toBe(0);
    // Set but empty (`TRUST_PROXY_HOPS= npm start`) is unset, as for every number the server reads (core/env-number.ts).
    expect(trustedProxyHops({ TRUST_PROXY: "true", TRUST_PROXY_HOPS: "" })).toBe(1);
    for (const bad of ["0", "-1", "1.5", "two", " "])
      expect(() => trustedProxyHops({ TRUST_PROXY: "true", TRUST_PROXY_HOPS: bad })).toThrow(/TRUST_PROXY_HOPS/);
  });
});
