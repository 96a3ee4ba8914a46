import http from "node:http";
import type { AddressInfo } from "node:net";
import { once } from "node:events";
import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it, vi } from "vitest";
import { getDb } from "@/db";
import { jobQueue } from "@/db/job-queue";
import { newId } from "@/core/ids";
import { webhookDeliveries, webhookEndpoints } from "@/db/schema";
import { enqueueWebhookEvent } from "@/lib/webhooks/queue";
import { newSigningSecret } from "@/lib/webhooks/signing-secret";
import { webhookCredentials } from "@/core/sealed-secret";
import { createOrg } from "./helpers/factories";
import { startServerProcess, type ServerProcess } from "./helpers/server-process";
import { eventually } from "./helpers/eventually";

// Delivery is durable. The API server (npm run start:api, so PostgreSQL) is killed
// while it is sending an event; the job it had taken expires and the restarted server delivers it.
const receivedIds: string[] = [];
const receiver = http.createServer((request, response) => {
  request.resume();
  request.on("end", () => {
    receivedIds.push(String(request.headers["webhook-id"]));
    // The first attempt never gets an answer: its process dies while waiting for one.
    if (receivedIds.length > 1) response.writeHead(200).end("ok");
  });
});
const servers: ServerProcess[] = [];

afterAll(async () => {
  vi.unstubAllEnvs();
  await Promise.all(servers.map((server) => server.stop()));
  receiver.closeAllConnections();
  receiver.close();
});

describe.skipIf(!process.env.DATABASE_URL)("a webhook event across a SIGKILL of the server", () => {
  it("is delivered after the restart, with the same webhook-id", async () => {
    receiver.listen(0, "127.0.0.1");
    await once(receiver, "listening");
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    const env = { WEBHOOK_ALLOW_PRIVATE: "true", WEBHOOK_RETRY_DELAY_SECONDS: "1" };
    // The job is queued by this process, which sets its retry delay: a second, as the servers'.
    vi.stubEnv("WEBHOOK_RETRY_DELAY_SECONDS", env.WEBHOOK_RETRY_DELAY_SECONDS);
    const first = await startServerProcess("api-server.ts", env);
    servers.push(first);

    const org = await createOrg("pro");
    const endpointId = newId("whe");
    await getDb()
      .insert(webhookEndpoints)
      .values({ id: endpointId, orgId: org.id, url, eventTypes: ["key.created"], mode: "live", signingSecret: webhookCredentials.seal(newSigningSecret()) });
    await jobQueue();
    await getDb().transaction((tx) => enqueueWebhookEvent(tx, org.id, { type: "key.created", mode: "live", data: { id: "key_crash" } }));

    // The first server has taken the job and is waiting for the receiver: kill it there.
    await eventually(
      () => receivedIds.length,
      (n) => n >= 1,
      20_000,
    );
    expect(receivedIds).toHaveLength(1);
    first.child.kill("SIGKILL");
    await once(first.child, "exit");
    servers.splice(servers.indexOf(first), 1);
    const [inFlight] = await getDb().select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpointId));
    expect(inFlight).toMatchObject({ status: "pending", attempts: 0 });

    servers.push(await startServerProcess("api-server.ts", env));
    const [delivered] = await eventually(
      () => getDb().select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpointId)),
      (rows) => rows[0]?.status === "succeeded",
      110_000,
    );
    expect(delivered).toMatchObject({ status: "succeeded", attempts: 1, responseStatus: 200 });
    expect(receivedIds).toEqual([delivered!.id, delivered!.id]);
  }, 150_000);
});
