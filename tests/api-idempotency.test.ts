import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { idempotencyKeyDigest } from "@/lib/api/idempotency";
import { apiClient, contractApi, errorOf, itMatchesTheDocument, type ApiClient } from "./helpers/api-contract";

const api = contractApi();
let client: ApiClient;

beforeAll(async () => {
  client = await apiClient(api);
});

function createCustomer(idempotencyKey: string, name: string, as: ApiClient = client) {
  return as.call("/v1/customers", { method: "POST", headers: { "Idempotency-Key": idempotencyKey }, json: { name } });
}

async function customerNames(as: ApiClient = client): Promise<string[]> {
  const response = await as.call("/v1/customers?limit=100");
  return ((await response.json()) as { data: { name: string }[] }).data.map((customer) => customer.name);
}

describe("Idempotency-Key on POST", () => {
  it("replays the first response to a retry, byte for byte, and creates nothing more", async () => {
    const key = randomUUID();
    const first = await createCustomer(key, "Replay GmbH");
    expect(first.status).toBe(201);
    const firstBody = await first.text();
    expect(first.headers.get("Idempotent-Replayed")).toBeNull();

    const retry = await createCustomer(key, "Replay GmbH");
    expect(retry.status).toBe(201);
    expect(await retry.text()).toBe(firstBody);
    expect(retry.headers.get("Idempotent-Replayed")).toBe("true");
    expect(retry.headers.get("Content-Type")).toBe(first.headers.get("Content-Type"));
    // A replay is still a call: it gets its own request id and the rate-limit headers.
    expect(retry.headers.get("X-Request-Id")).not.toBe(first.headers.get("X-Request-Id"));
    expect(retry.headers.get("X-RateLimit-Limit")).not.toBeNull();
    expect((await customerNames()).filter((name) => name === "Replay GmbH")).toHaveLength(1);
  });

  it("refuses the same key with another body as idempotency_key_reused, and changes nothing", async () => {
    const key = randomUUID();
    expect((await createCustomer(key, "First Body AG")).status).toBe(201);
    const other = await createCustomer(key, "Second Body AG");
    expect(other.status).toBe(409);
    expect((await errorOf(other)).code).toBe("idempotency_key_reused");
    expect(await customerNames()).not.toContain("Second Body AG");
    // Another path with the same key is another request too.
    const product = await client.call("/v1/products", {
      method: "POST",
      headers: { "Idempotency-Key": key },
      json: { name: "Widget", unit_amount: 100, currency: "EUR" },
    });
    expect(product.status).toBe(409);
  });

  it("creates one record for concurrent requests with one key; the others replay or are told it is in use", async () => {
    const key = randomUUID();
    const responses = await Promise.all(Array.from({ length: 20 }, () => createCustomer(key, "Concurrent Ltd")));
    const statuses = responses.map((response) => response.status);
    expect(
      statuses.every((status) => status === 201 || status === 409),
      statuses.join(),
    ).toBe(true);
    for (const response of responses.filter((r) => r.status === 409)) expect((await errorOf(response)).code).toBe("idempotency_key_in_use");
    expect(statuses).toContain(201);
    expect((await customerNames()).filter((name) => name === "Concurrent Ltd")).toHaveLength(1);
    // Once the first has finished, every retry replays it.
    expect((await createCustomer(key, "Concurrent Ltd")).headers.get("Idempotent-Replayed")).toBe("true");
  });

  it("keeps keys apart per organization", async () => {
    const other = await apiClient(api);
    const key = randomUUID();
    expect((await createCustomer(key, "Org One")).status).toBe(201);
    const theirs = await createCustomer(key, "Org Two", other);
    expect(theirs.status).toBe(201);
    expect(theirs.headers.get("Idempotent-Replayed")).toBeNull();
    expect(await customerNames(other)).toEqual(["Org Two"]);
  });

  it("replays a refusal too: the same request gets the same answer", async () => {
    const key = randomUUID();
    const first = await client.call("/v1/invoices", {
      method: "POST",
      headers: { "Idempotency-Key": key },
      json: { customer: "cus_doesnotexist", currency: "EUR", lines: [] },
    });
    const retry = await client.call("/v1/invoices", {
      method: "POST",
      headers: { "Idempotency-Key": key },
      json: { customer: "cus_doesnotexist", currency: "EUR", lines: [] },
    });
    expect(retry.status).toBe(first.status);
    expect(await retry.text()).toBe(await first.text());
    expect(retry.headers.get("Idempotent-Replayed")).toBe("true");
  });

  it("replays a PDF with its bytes and its Content-Disposition", async () => {
    const customer = (await (await createCustomer(randomUUID(), "Pdf GmbH")).json()) as { id: string };
    const draft = await client.call("/v1/invoices", {
      method: "POST",
      json: { customer: customer.id, currency: "EUR", lines: [{ description: "Work", quantity: 1, unit_amount: 100 }] },
    });
    const { id } = (await draft.json()) as { id: string };
    const render = () => client.call("/v1/pdf/generate", { method: "POST", headers: { "Idempotency-Key": `pdf-${id}` }, json: { invoice: id } });
    const first = await render();
    const retry = await render();
    expect(first.status).toBe(200);
    expect(retry.headers.get("Idempotent-Replayed")).toBe("true");
    expect(retry.headers.get("Content-Type")).toBe("application/pdf");
    expect(retry.headers.get("Content-Disposition")).toBe(first.headers.get("Content-Disposition"));
    expect(Buffer.from(await retry.arrayBuffer()).equals(Buffer.from(await first.arrayBuffer()))).toBe(true);
  });

  it.each([
    ["empty", ""],
    ["256 characters", "k".repeat(256)],
    ["with a space", "my key"],
    ["not ASCII", "clé"],
  ])("refuses a key that is %s with 400 validation_failed, and creates nothing", async (_label, key) => {
    const name = `Bad Key ${randomUUID()}`;
    const response = await client.call("/v1/customers", { method: "POST", headers: { "Idempotency-Key": key }, json: { name } });
    expect(response.status).toBe(400);
    expect((await errorOf(response)).details?.[0]?.path).toBe("header.idempotency-key");
    expect(await customerNames()).not.toContain(name);
  });

  it("forgets a key after 24 hours", async () => {
    const key = randomUUID();
    expect((await createCustomer(key, "Yesterday Inc")).status).toBe(201);
    await getDb().execute(
      sql`update idempotency_keys set created_at = now() - interval '25 hours' where org_id = ${client.org.id} and key = ${idempotencyKeyDigest(key)}`,
    );
    const today = await createCustomer(key, "Today Inc");
    expect(today.status).toBe(201);
    expect(today.headers.get("Idempotent-Replayed")).toBeNull();
  });

  it("lets a retry take over a key whose request died unfinished, but not a running one", async () => {
    const key = randomUUID();
    expect((await createCustomer(key, "Crashed Co")).status).toBe(201);
    // As if the process had died before storing the response.
    await getDb().execute(
      sql`update idempotency_keys set response_status = null, response_body = null where org_id = ${client.org.id} and key = ${idempotencyKeyDigest(key)}`,
    );
    const running = await createCustomer(key, "Crashed Co");
    expect(running.status).toBe(409);
    expect((await errorOf(running)).code).toBe("idempotency_key_in_use");
    await getDb().execute(
      sql`update idempotency_keys set created_at = now() - interval '2 minutes' where org_id = ${client.org.id} and key = ${idempotencyKeyDigest(key)}`,
    );
    expect((await createCustomer(key, "Crashed Co")).status).toBe(201);
    expect((await customerNames()).filter((name) => name === "Crashed Co")).toHaveLength(2);
  });

  it("documents the header and both 409 codes on every POST operation", async () => {
    const document = (await (await fetch(api.url("/v1/openapi.json"))).json()) as {
      paths: Record<
        string,
        Record<string, { parameters?: { name: string; in: string }[]; responses: Record<string, { content?: Record<string, { schema: unknown }> }> }>
      >;
    };
    const posts = Object.entries(document.paths).flatMap(([path, item]) => (item.post ? [[path, item.post] as const] : []));
    expect(posts.length).toBeGreaterThanOrEqual(7);
    for (const [path, operation] of posts) {
      expect(
        operation.parameters?.some((p) => p.in === "header" && p.name.toLowerCase() === "idempotency-key"),
        path,
      ).toBe(true);
      const conflicts = JSON.stringify(operation.responses["409"] ?? {});
      expect(conflicts, path).toContain("idempotency_key_reused");
      expect(conflicts, path).toContain("idempotency_key_in_use");
    }
  });
});

itMatchesTheDocument(api, 20);
