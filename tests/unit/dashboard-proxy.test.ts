import fs from "node:fs";
import { createServer, request, type IncomingHttpHeaders, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { proxyToDashboard } from "@/servers/dashboard-proxy";
import { createOnePortListener } from "@/servers/one-port-listener";

// A front worker of npm start on PostgreSQL (servers/front-worker.ts), with the dashboard behind its
// Unix socket played by a server that says what reached it, and the API by a fetch handler.

const socketDir = fs.mkdtempSync(path.join(os.tmpdir(), "dashboard-proxy-"));
const socketPath = path.join(socketDir, "dashboard.sock");
const reached: { method: string; url: string; headers: IncomingHttpHeaders; body: string }[] = [];
/** Set by the streaming route: resolves when the dashboard sees its client go. */
let streamClosed: Promise<void> = Promise.resolve();

const dashboard = createServer(async (req, res) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  reached.push({ method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString() });
  if (req.url === "/stream") {
    res.writeHead(200, { "Content-Type": "text/event-stream" });
    res.write("data: first\n\n");
    streamClosed = new Promise((resolve) => res.on("close", resolve));
    return;
  }
  res.setHeader("Set-Cookie", ["session=one; HttpOnly", "csrf=two; HttpOnly"]);
  res.writeHead(req.url === "/missing" ? 404 : 200, { "Content-Type": "text/plain" }).end(`dashboard ${req.method} ${req.url}`);
});

let front: Server;
let port = 0;

beforeAll(async () => {
  await new Promise<void>((resolve) => dashboard.listen(socketPath, resolve));
  front = createServer(
    createOnePortListener({
      handleNext: proxyToDashboard(socketPath),
      apiFetch: (req) => Response.json({ api: new URL(req.url).pathname }),
      proxyHops: 0,
      nextInProcess: true,
    }),
  );
  await new Promise<void>((resolve) => front.listen(0, "127.0.0.1", resolve));
  port = (front.address() as AddressInfo).port;
});

afterAll(async () => {
  front.closeAllConnections();
  await new Promise((resolve) => front.close(resolve));
  dashboard.closeAllConnections();
  await new Promise((resolve) => dashboard.close(resolve));
  fs.rmSync(socketDir, { recursive: true, force: true });
});

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

function send(method: string, url: string, headers: Record<string, string> = {}, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const outgoing = request({ host: "127.0.0.1", port, method, path: url, headers }, (incoming) => {
      let text = "";
      incoming.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
      incoming.on("end", () => resolve({ status: incoming.statusCode!, headers: incoming.headers, body: text }));
    });
    outgoing.on("error", reject);
    outgoing.end(body);
  });
}

describe("a front worker hands the dashboard what is not /v1", () => {
  it("with the Host the client sent, its address as X-Forwarded-For, and no forwarding header of its own making", async () => {
    const answer = await send("GET", "/acme/settings/api?tab=keys", {
      Host: "invoicing.example.com",
      "X-Forwarded-For": "203.0.113.9",
      "X-Forwarded-Host": "evil.example",
    });
    expect(answer).toMatchObject({ status: 200, body: "dashboard GET /acme/settings/api?tab=keys" });
    const seen = reached.at(-1)!;
    expect(seen.headers.host).toBe("invoicing.example.com");
    expect(seen.headers["x-forwarded-for"]).toBe("127.0.0.1");
    expect(seen.headers["x-forwarded-host"]).toBeUndefined();
  });

  it("answers /v1 itself", async () => {
    const before = reached.length;
    expect(JSON.parse((await send("GET", "/v1/products")).body)).toEqual({ api: "/v1/products" });
    expect(reached).toHaveLength(before);
  });

  it("passes a form's body, the status, and every Set-Cookie", async () => {
    const answer = await send("POST", "/missing", { "Content-Type": "application/x-www-form-urlencoded" }, "name=Ada&role=admin");
    expect(answer.status).toBe(404);
    expect(answer.headers["set-cookie"]).toEqual(["session=one; HttpOnly", "csrf=two; HttpOnly"]);
    expect(reached.at(-1)).toMatchObject({ method: "POST", body: "name=Ada&role=admin" });
  });

  it("streams an answer as it is written, and closes the dashboard's side when the client goes", async () => {
    const incoming = await new Promise<IncomingMessage>((resolve, reject) =>
      request({ host: "127.0.0.1", port, path: "/stream" }, resolve).on("error", reject).end(),
    );
    expect(incoming.headers["content-type"]).toBe("text/event-stream");
    const [first] = (await new Promise((resolve) => incoming.once("data", (chunk: Buffer) => resolve([chunk.toString()])))) as string[];
    expect(first).toBe("data: first\n\n");
    incoming.destroy();
    await streamClosed;
  });

  it("says the dashboard is unavailable (502) while no dashboard worker listens, and the API goes on", async () => {
    const moved = `${socketPath}.away`;
    fs.renameSync(socketPath, moved);
    try {
      const answer = await send("GET", "/signin");
      expect(answer.status).toBe(502);
      expect(answer.headers["retry-after"]).toBe("5");
      expect(answer.body).toContain("The dashboard is restarting");
      expect((await send("GET", "/v1/invoices")).status).toBe(200);
    } finally {
      fs.renameSync(moved, socketPath);
    }
    expect((await send("GET", "/signin")).status).toBe(200);
  });
});
