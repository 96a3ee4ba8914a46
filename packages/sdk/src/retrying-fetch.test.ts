import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Invoicing } from "./client.js";
import { ConnectionError, InternalServerError } from "./errors.js";

/**
 * A local HTTP server answering from a script, one entry per request: a status with headers and a
 * body, "drop" to close the connection without an answer, or "hang" to never answer. It records what it was sent.
 */
type Step = { status: number; headers?: Record<string, string>; body?: unknown } | "drop" | "hang";
let script: Step[] = [];
const received: { method: string; url: string; idempotencyKey: string | undefined }[] = [];
let server: http.Server;
let baseUrl: string;

beforeAll(async () => {
  server = http.createServer((request, response) => {
    received.push({ method: request.method!, url: request.url!, idempotencyKey: request.headers["idempotency-key"] as string | undefined });
    request.resume();
    const step = script.shift() ?? { status: 200, body: { object: "list", data: [], has_more: false, next_cursor: null } };
    if (step === "drop") return void request.socket.destroy();
    if (step === "hang") return;
    response.writeHead(step.status, { "Content-Type": "application/json", "X-Request-Id": `req_${received.length}`, ...step.headers });
    response.end(JSON.stringify(step.body ?? { error: { code: "internal_error", message: "Something went wrong.", request_id: `req_${received.length}` } }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  return new Promise<void>((resolve) => server.close(() => resolve()));
});

function run(steps: Step[], options: ConstructorParameters<typeof Invoicing>[0] = {}) {
  script = steps;
  received.length = 0;
  return new Invoicing({ apiKey: "ik_test", baseUrl, ...options });
}

const CUSTOMER = { id: "cus_1", object: "customer" };

describe("retries", () => {
  it("sends again after a 503 and a 500, each waiting its Retry-After", async () => {
    const invoicing = run([
      { status: 503, headers: { "Retry-After": "0" } },
      { status: 500, headers: { "Retry-After": "0" } },
    ]);
    expect(await invoicing.customers.list()).toMatchObject({ object: "list" });
    expect(received).toHaveLength(3);
  });

  it("stops after maxRetries and throws the last answer's error", async () => {
    const invoicing = run(
      Array.from({ length: 5 }, () => ({ status: 502, headers: { "Retry-After": "0" } })),
      { maxRetries: 2 },
    );
    const error = await invoicing.customers.list().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error).toMatchObject({ status: 502, code: "internal_error", requestId: "req_3" });
    expect(received).toHaveLength(3);
  });

  it("backs off when a 5xx gives no Retry-After", async () => {
    const invoicing = run([{ status: 500 }]);
    const started = performance.now();
    await invoicing.customers.list();
    expect(received).toHaveLength(2);
    expect(performance.now() - started).toBeGreaterThanOrEqual(370);
  });

  it("does not wait for a Retry-After longer than its bound", async () => {
    const invoicing = run([{ status: 429, headers: { "Retry-After": "120" }, body: { error: { code: "monthly_quota_exceeded", message: "Used up." } } }]);
    await expect(invoicing.customers.list()).rejects.toMatchObject({ status: 429, code: "monthly_quota_exceeded" });
    expect(received).toHaveLength(1);
  });

  it("asks again while the first request with the same Idempotency-Key is still running, with that key", async () => {
    const invoicing = run([
      { status: 409, body: { error: { code: "idempotency_key_in_use", message: "Still running." } } },
      { status: 201, body: CUSTOMER },
    ]);
    expect(await invoicing.customers.create({ name: "A", currency: "EUR" })).toEqual(CUSTOMER);
    expect(received.map((request) => request.idempotencyKey)).toEqual([received[0]!.idempotencyKey, received[0]!.idempotencyKey]);
  });

  it("does not retry a 409 of another kind, nor a 400", async () => {
    const conflict = run([{ status: 409, body: { error: { code: "idempotency_key_reused", message: "Another request." } } }]);
    await expect(conflict.customers.create({ name: "A", currency: "EUR" })).rejects.toMatchObject({ code: "idempotency_key_reused" });
    expect(received).toHaveLength(1);
    const invalid = run([{ status: 400, body: { error: { code: "validation_failed", message: "Bad.", details: [{ path: "name", message: "Required" }] } } }]);
    await expect(invalid.customers.create({ name: "", currency: "EUR" })).rejects.toMatchObject({ details: [{ path: "name", message: "Required" }] });
    expect(received).toHaveLength(1);
  });

  it("resends a GET whose connection dropped, never a DELETE", async () => {
    const reads = run(["drop"]);
    await reads.customers.list();
    expect(received.map((request) => request.method)).toEqual(["GET", "GET"]);
    const deletes = run(["drop"]);
    const error = await deletes.customers.delete("cus_1").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({ status: null, code: "connection_error" });
    expect(received).toHaveLength(1);
  });

  it("stops waiting when the caller aborts", async () => {
    const invoicing = run([{ status: 503, headers: { "Retry-After": "30" } }]);
    const controller = new AbortController();
    const call = invoicing.customers.list({}, { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    await expect(call).rejects.toMatchObject({ name: "AbortError" });
    expect(received).toHaveLength(1);
  });

  it("gives up on an attempt past its time limit and says no answer came", async () => {
    const invoicing = run(["hang", "hang"], { maxRetries: 1, timeoutMs: 100 });
    const error = await invoicing.customers.list().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).cause).toMatchObject({ name: "TimeoutError" });
    expect(received).toHaveLength(2);
  });
});
