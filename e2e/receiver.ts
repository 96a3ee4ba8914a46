import http from "node:http";
import type { AddressInfo } from "node:net";

/** A receiver on 127.0.0.1 for this test: it answers 200 and keeps what it got. */
export async function startReceiver() {
  const received: { headers: Record<string, string>; body: string }[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      received.push({ headers: request.headers as Record<string, string>, body: Buffer.concat(chunks).toString("utf8") });
      response.writeHead(200, { "content-type": "text/plain" }).end("received");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/e2e-${Date.now()}`;
  return { url, received, stop: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
