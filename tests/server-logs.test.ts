import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiServerBehindRelay } from "./helpers/database-relay";
import { eventually } from "./helpers/eventually";
import { createOrg, insertKey } from "./helpers/factories";
import type { ServerProcess } from "./helpers/server-process";

// What a server prints (docs/operations.md#logs): JSON lines only, each with its time, level and
// message, a failure with its request id and error; never a key, a secret or a body.

const lines = (server: ServerProcess) =>
  server
    .output()
    .split("\n")
    .filter(Boolean)
    .map((line) => {
      try {
        return JSON.parse(line) as Record<string, unknown>;
      } catch {
        throw new Error(`Not a JSON log line: ${line}`);
      }
    });

describe.skipIf(!process.env.DATABASE_URL)("the API server's log", () => {
  let server: ServerProcess;
  let relay: Awaited<ReturnType<typeof apiServerBehindRelay>>["relay"];
  let stop = async () => {};
  beforeAll(async () => {
    ({ server, relay, stop } = await apiServerBehindRelay({ LOG_LEVEL: "debug" }));
  });
  afterAll(() => stop());

  it("is JSON lines that name each request and failure by its id, and never carry a key, a secret or a body", async () => {
    const org = await createOrg("pro");
    const key = await insertKey(org.id);
    const body = JSON.stringify({ name: "Body Marker GmbH", currency: "EUR", email: "body-marker@example.com" });
    const created = await fetch(`${server.base}/v1/customers?api_key=${key.value}`, {
      method: "POST",
      headers: { "X-API-Key": key.value, "Content-Type": "application/json", Authorization: "Bearer another-secret-0123" },
      body,
    });
    expect(created.status).toBe(201);
    const servedId = created.headers.get("x-request-id");
    relay.cut();
    const failed = await fetch(`${server.base}/v1/customers`, { headers: { "X-API-Key": key.value } });
    expect(failed.status).toBe(500);
    const failedId = failed.headers.get("x-request-id");
    const failedTrace = failed.headers.get("traceparent")?.split("-")[1];
    relay.restore();

    const logged = await eventually(
      () => lines(server),
      (all) => all.some((line) => line.requestId === failedId && line.msg === "Gateway failure"),
    );
    for (const line of logged) expect(line).toMatchObject({ time: expect.any(String), level: expect.any(String), msg: expect.any(String) });
    expect(logged).toContainEqual(
      expect.objectContaining({ level: "debug", msg: "request served", requestId: servedId, route: "/v1/customers", method: "POST", status: 201 }),
    );
    const failure = logged.find((line) => line.requestId === failedId && line.msg === "Gateway failure")!;
    expect(failedTrace).toMatch(/^[0-9a-f]{32}$/);
    expect(failure).toMatchObject({
      level: "error",
      route: "/v1/customers",
      traceId: failedTrace,
      err: { message: expect.any(String), stack: expect.any(String) },
    });
    const everything = server.output();
    for (const secret of [key.value, key.value.slice(-12), "another-secret-0123", "Body Marker", "body-marker@example.com"])
      expect(everything).not.toContain(secret);
  });
});
