import http from "node:http";
import type { AddressInfo } from "node:net";

export interface Received {
  /** The path and query the request was sent to. */
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}

/** A receiver whose answer the test sets per request: a status, or "hang" to never answer. */
export class Receiver {
  readonly received: Received[] = [];
  answer: (request: number) => number | "hang" = () => 200;
  private server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      this.received.push({ path: request.url ?? "", headers: request.headers, body: Buffer.concat(chunks).toString("utf8"), at: Date.now() });
      const answer = this.answer(this.received.length);
      if (answer === "hang") return;
      response.writeHead(answer, { "content-type": "text/plain" }).end(answer < 300 ? "thanks" : `refused with ${answer}`);
    });
  });
  url = "";

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

const receivers: Receiver[] = [];
export async function receiver(): Promise<Receiver> {
  const started = new Receiver();
  await started.start();
  receivers.push(started);
  return started;
}

/** Stops every receiver `receiver()` started. */
export async function stopReceivers(): Promise<void> {
  await Promise.all(receivers.splice(0).map((started) => started.stop()));
}
