/**
 * The log-streams bench's destination (bench/log-streams-cost.ts), in a process and session of its
 * own at the lowest CPU priority, as the delivery process is: it stands in for a service on other
 * machines (Datadog, a collector), so it takes only the CPU the server, PostgreSQL and the load
 * generator leave. It counts the events of the HTTPS destination's batches by type, and the
 * distinct request events by stream (at-least-once delivery may send one twice), answers 200, and
 * tells its parent what it has over IPC.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { lowestPriority } from "@/servers/lowest-priority";

export interface ReceiverCounts {
  events: { request: number; activity: number; alert: number };
  distinct: number;
  batches: number;
}
export type ReceiverAsk = { ask: "counts" | "reset" | "close" } | { ask: "delivered"; streamId: string };

lowestPriority();
const events = { request: 0, activity: 0, alert: 0 };
/** The request ids each stream delivered. */
const requests = new Map<string, Set<string>>();
let batches = 0;

const server = http.createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on("data", (chunk: Buffer) => chunks.push(chunk));
  request.on("end", () => {
    type Body = { type: string; data: { stream_id: string; events: { id: string; type: keyof typeof events }[] } };
    const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Body;
    if (body.type !== "log_events") return void response.writeHead(400).end();
    batches++;
    for (const event of body.data.events) {
      events[event.type]++;
      if (event.type !== "request") continue;
      if (!requests.has(body.data.stream_id)) requests.set(body.data.stream_id, new Set());
      requests.get(body.data.stream_id)!.add(event.id);
    }
    response.writeHead(200, { "content-type": "application/json" }).end("{}");
  });
});

const distinct = () => [...requests.values()].reduce((sum, ids) => sum + ids.size, 0);

process.on("message", (message: ReceiverAsk) => {
  if (message.ask === "counts") process.send!({ events, distinct: distinct(), batches } satisfies ReceiverCounts);
  if (message.ask === "delivered") process.send!([...(requests.get(message.streamId) ?? [])]);
  if (message.ask === "reset") {
    events.request = events.activity = events.alert = batches = 0;
    requests.clear();
    process.send!("reset");
  }
  if (message.ask === "close") {
    server.closeAllConnections();
    server.close(() => process.exit(0));
  }
});
// In a session of its own, it would outlive a bench that died: it ends with the channel.
process.on("disconnect", () => process.exit(0));
server.listen(0, "127.0.0.1", () => process.send!({ port: (server.address() as AddressInfo).port }));
