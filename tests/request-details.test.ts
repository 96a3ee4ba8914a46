import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { findRequest } from "@/db/queries/request-details";
import { maintainRequestLog } from "@/db/partitions";
import { rowsOf } from "@/db/rows";
import { requestIdTime } from "@/core/ids";
import { CAPTURED_BODY_BYTES, REDACTED } from "@/lib/api/request-capture";
import RequestLayout from "@/app/[orgSlug]/settings/api/audit/[requestId]/layout";
import { bodySize } from "@/app/[orgSlug]/settings/api/audit/[requestId]/body-size";
import { apiClient, contractApi, errorOf } from "./helpers/api-contract";
import { addMember, createOrg, insertKey } from "./helpers/factories";
import { readAs } from "./helpers/session";

const api = contractApi();

/** Every text stored about a request, as stored. */
async function storedRows(orgId: string, requestId: string): Promise<string> {
  const rows = rowsOf<{ text: string }>(
    await getDb().execute(sql`
      select concat_ws(' ', path, user_agent) as text from request_log where org_id = ${orgId} and request_id = ${requestId}
      union all select concat_ws(' ', request_body, response_body, error_message, idempotency_key) from request_detail where org_id = ${orgId} and request_id = ${requestId}`),
  );
  expect(rows).toHaveLength(2);
  return rows.map(({ text }) => text).join(" ");
}

describe("a request's details", () => {
  it("keep a 400's validation error, the body sent and the answer, found by the request id alone", async () => {
    const client = await apiClient(api);
    const sent = '{\n  "name": "",\n  "email": "not-an-email"\n}';
    const response = await client.call("/v1/customers?expand=none", { method: "POST", headers: { "Content-Type": "application/json" }, body: sent });
    expect(response.status).toBe(400);
    const answer = await response.text();
    const requestId = response.headers.get("x-request-id")!;
    const found = await findRequest(client.org.id, requestId);
    expect(found).toMatchObject({
      requestId,
      status: 400,
      method: "POST",
      path: "/v1/customers?expand=none",
      endpoint: "POST /v1/customers",
      errorCode: "validation_failed",
      hasDetail: true,
      requestBody: sent,
      requestBodyBytes: sent.length,
      responseBody: answer,
    });
    expect(found!.errorMessage).toBe((JSON.parse(answer) as { error: { message: string } }).error.message);
    // The id's time is the row's.
    expect(found!.createdAt).toBe(requestIdTime(requestId)!.toISOString());
  });

  it("keep the raw text of a body that is not JSON", async () => {
    const client = await apiClient(api);
    const response = await client.call("/v1/customers", { method: "POST", headers: { "Content-Type": "application/json" }, body: '{"name": "Unclosed' });
    expect((await errorOf(response)).code).toBe("invalid_json");
    expect((await findRequest(client.org.id, response.headers.get("x-request-id")!))?.requestBody).toBe('{"name": "Unclosed');
  });

  it("keep the body of a request refused before its handler read it", async () => {
    const org = await createOrg("solo");
    const { value } = await insertKey(org.id);
    const response = await api.request("/v1/customers", { method: "POST", key: value, json: { name: "Refused Ltd" } });
    expect((await errorOf(response)).code).toBe("plan_no_api_access");
    const found = await findRequest(org.id, response.headers.get("x-request-id")!);
    expect(found?.requestBody).toBe('{"name":"Refused Ltd"}');
    expect(found?.errorMessage).toMatch(/no API access/);
  });

  it("cut a body over 8 KB at 8 KB, on a character, and keep its whole size", async () => {
    const client = await apiClient(api);
    // Three-byte characters, so the cut falls inside one unless it steps back.
    const name = "€".repeat(5000);
    const sent = JSON.stringify({ name, email: "bad" });
    const response = await client.call("/v1/customers", { method: "POST", headers: { "Content-Type": "application/json" }, body: sent });
    expect(response.status).toBe(400);
    const found = await findRequest(client.org.id, response.headers.get("x-request-id")!);
    const kept = Buffer.byteLength(found!.requestBody!);
    expect(kept).toBeLessThanOrEqual(CAPTURED_BODY_BYTES);
    expect(kept).toBeGreaterThan(CAPTURED_BODY_BYTES - 3);
    expect(sent.startsWith(found!.requestBody!)).toBe(true);
    expect(found!.requestBodyBytes).toBe(Buffer.byteLength(sent));
  });

  it("keep no bodies for a success, and the Idempotency-Key and replay of a POST", async () => {
    const client = await apiClient(api);
    const ok = await client.call("/v1/customers");
    expect(await findRequest(client.org.id, ok.headers.get("x-request-id")!)).toMatchObject({
      status: 200,
      hasDetail: false,
      requestBody: null,
      responseBody: null,
    });
    const init = { method: "POST", headers: { "Idempotency-Key": "order-4711" }, json: { name: "Once GmbH" } };
    const [first, replay] = [await client.call("/v1/customers", init), await client.call("/v1/customers", init)];
    expect(await findRequest(client.org.id, first.headers.get("x-request-id")!)).toMatchObject({
      status: 201,
      idempotencyKey: "order-4711",
      replayed: false,
      requestBody: null,
    });
    expect(await findRequest(client.org.id, replay.headers.get("x-request-id")!)).toMatchObject({ status: 201, idempotencyKey: "order-4711", replayed: true });
  });

  it("are found within the request's organization only, and an id of no request finds nothing", async () => {
    const [mine, theirs] = [await apiClient(api), await apiClient(api)];
    const response = await theirs.call("/v1/nothing-here");
    const requestId = response.headers.get("x-request-id")!;
    expect(await findRequest(theirs.org.id, requestId)).not.toBeNull();
    expect(await findRequest(mine.org.id, requestId)).toBeNull();
    for (const id of ["req_", "req_notanid", `${requestId.slice(0, -1)}_`, requestId.replace("req_", "cus_"), `${requestId}x`]) {
      expect(await findRequest(theirs.org.id, id)).toBeNull();
    }
  });
});

describe("the details page", () => {
  /** What Next's notFound() throws, so the page answers 404 with the not-found page. */
  const NOT_FOUND = expect.objectContaining({ digest: expect.stringMatching(/404/) });

  it("is a 404 for an id of no request and for another organization's request, from its layout (above every skeleton)", async () => {
    const [mine, theirs] = [await apiClient(api), await apiClient(api)];
    const member = await addMember(mine.org.id, "member");
    const open = (requestId: string) =>
      readAs(member.id, () => RequestLayout({ children: "details", params: Promise.resolve({ orgSlug: mine.org.slug, requestId }) }));
    const own = (await mine.call("/v1/nothing-here")).headers.get("x-request-id")!;
    const other = (await theirs.call("/v1/nothing-here")).headers.get("x-request-id")!;
    expect(await open(own)).toBe("details");
    await expect(open(other)).rejects.toEqual(NOT_FOUND);
    await expect(open("req_0000000000000000000000")).rejects.toEqual(NOT_FOUND);
    await expect(open("req_%E0%A4%A")).rejects.toEqual(NOT_FOUND);
  });

  it("says a body was cut only when it was longer than 8 KB, and gives the size it was sent with", async () => {
    const client = await apiClient(api);
    // A key in the body: what is kept, "[redacted]" in its place, is shorter than what was sent.
    const sent = JSON.stringify({ name: "", email: client.key });
    const short = await client.call("/v1/customers", { method: "POST", headers: { "Content-Type": "application/json" }, body: sent });
    const kept = await findRequest(client.org.id, short.headers.get("x-request-id")!);
    expect(Buffer.byteLength(kept!.requestBody!)).toBeLessThan(Buffer.byteLength(sent));
    expect(bodySize(kept!.requestBodyBytes)).toEqual({ cut: false, label: `${Buffer.byteLength(sent)} bytes` });

    const long = JSON.stringify({ name: "x".repeat(10_000), email: "bad" });
    const cut = await client.call("/v1/customers", { method: "POST", headers: { "Content-Type": "application/json" }, body: long });
    expect(cut.status).toBe(400);
    expect(bodySize((await findRequest(client.org.id, cut.headers.get("x-request-id")!))!.requestBodyBytes)).toEqual({
      cut: true,
      label: "Cut at 8 KB of 9.8 KB.",
    });
  });
});

describe("credentials (never stored)", () => {
  it("never appear in any table, whatever header or body carries them", async () => {
    const client = await apiClient(api);
    const bearer = "bearer-secret-5b2c7e91d4";
    const cookies = ["cookie-secret-0c8f33a1", "cookie-secret-9d1e5f27"];
    const secrets = [client.key, bearer, ...cookies];
    const everywhere = secrets.join(" ");
    const headers = {
      "Content-Type": "application/json",
      Authorization: `Bearer ${bearer}`,
      "Proxy-Authorization": `Basic ${bearer}`,
      Cookie: `session=${cookies[0]}; theme=${cookies[1]}`,
      "User-Agent": `curl/8.5 ${everywhere}`,
      Referer: `https://example.test/?k=${client.key}`,
      "X-Custom": everywhere,
      "Idempotency-Key": `idem-${bearer}`,
    };
    const body = JSON.stringify({ name: "", email: everywhere, note: everywhere, [client.key]: bearer });
    const calls = [
      client.call(`/v1/customers?api_key=${client.key}&token=${bearer}`, { headers }),
      client.call("/v1/customers", { method: "POST", headers, body }),
      client.call("/v1/customers", { method: "POST", headers: { ...headers, "Idempotency-Key": `other-${cookies[0]}` }, body: `{"broken": "${everywhere}` }),
      client.call(`/v1/invoices/${client.key}`, { headers }),
      client.call("/v1/customers", {
        method: "POST",
        headers: { ...headers, "Idempotency-Key": `third-${cookies[1]}` },
        body: JSON.stringify({ name: `Named ${"x".repeat(8180)}${client.key}` }),
      }),
    ];
    const statuses = (await Promise.all(calls)).map((response) => response.status);
    expect(statuses.filter((status) => status >= 400).length).toBeGreaterThanOrEqual(3);
    const [stored] = rowsOf<{ count: number }>(
      await getDb().execute(sql`select count(*)::int as count from request_detail where org_id = ${client.org.id} and request_body like ${`%${REDACTED}%`}`),
    );
    expect(stored!.count).toBeGreaterThanOrEqual(2);

    // Every table, every row, as text; bytea columns show as hex.
    const tables = rowsOf<{ name: string }>(
      await getDb().execute(
        sql`select quote_ident(table_name) as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`,
      ),
    );
    const leaks: string[] = [];
    for (const { name } of tables) {
      for (const secret of secrets) {
        const hex = Buffer.from(secret).toString("hex");
        const [row] = rowsOf<{ count: number }>(
          await getDb().execute(sql.raw(`select count(*)::int as count from ${name} t where t::text like '%${secret}%' or t::text like '%${hex}%'`)),
        );
        if (row!.count > 0) leaks.push(`${name}: ${secret}`);
      }
    }
    expect(leaks).toEqual([]);
  });
});

describe("credentials by their place (docs/security.md: what is redacted)", () => {
  it("remove a key written with JSON escapes from a 4xx body, in storage and in the details", async () => {
    const client = await apiClient(api);
    const other = (await insertKey(client.org.id)).value;
    // What a JSON parser, and so the details page, reads as the key itself.
    const escaped = `${other.slice(0, 3)}${[...other.slice(3)].map((char, i) => (i % 2 ? char : `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`)).join("")}`;
    expect(JSON.parse(`"${escaped}"`)).toBe(other);
    const response = await client.call("/v1/customers", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: `{"name":"","email":"${escaped}"}`,
    });
    expect(response.status).toBe(400);
    const requestId = response.headers.get("x-request-id")!;
    const found = await findRequest(client.org.id, requestId);
    expect(found?.requestBody).toBe(`{"name":"","email":"${REDACTED}"}`);
    for (const text of [await storedRows(client.org.id, requestId), ...Object.values(found!).filter((value) => typeof value === "string")]) {
      expect(text).not.toContain(other);
      expect(text).not.toContain(escaped.slice(0, 12));
    }
  });

  it("replace the value of a query parameter whose name says it is a credential, in the stored path", async () => {
    const client = await apiClient(api);
    const response = await client.call("/v1/customers?limit=2&token=abc&Access_Token=def&client%5Fsecret=ghi");
    const requestId = response.headers.get("x-request-id")!;
    expect((await findRequest(client.org.id, requestId))?.path).toBe(
      `/v1/customers?limit=2&token=${REDACTED}&Access_Token=${REDACTED}&client%5Fsecret=${REDACTED}`,
    );
    const stored = await storedRows(client.org.id, requestId);
    for (const value of ["abc", "def", "ghi"]) expect(stored).not.toContain(`=${value}`);
  });

  it("replace the value of every body member whose name says it is a credential, nested too, and keep the others", async () => {
    const client = await apiClient(api);
    const sent = {
      name: "",
      password: "hunter2",
      email: "kept@example.test",
      profile: { "X-Auth-Token": 4711, items: [{ client_secret: { inner: "s3cr3t-inner" } }, { label: "kept label", refresh_token: "rt-5521" }] },
      apiKey: ["ak-1", "ak-2"],
    };
    const response = await client.call("/v1/customers", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(sent, null, 2),
    });
    expect(response.status).toBe(400);
    const requestId = response.headers.get("x-request-id")!;
    const found = await findRequest(client.org.id, requestId);
    expect(JSON.parse(found!.requestBody!)).toEqual({
      name: "",
      password: REDACTED,
      email: "kept@example.test",
      profile: { "X-Auth-Token": REDACTED, items: [{ client_secret: REDACTED }, { label: "kept label", refresh_token: REDACTED }] },
      apiKey: REDACTED,
    });
    const stored = await storedRows(client.org.id, requestId);
    for (const value of ["hunter2", "4711", "s3cr3t-inner", "rt-5521", "ak-1", "ak-2"]) expect(stored).not.toContain(value);
  });
});

describe.each(["Authorization", "Proxy-Authorization"])("the %s header (never stored)", (header) => {
  it("is removed, whole and word by word, from everything stored about the request, on its own", async () => {
    const client = await apiClient(api);
    const secret = `${header.toLowerCase()}-secret-7f3a91c2`;
    const response = await client.call(`/v1/customers?q=${secret}`, {
      method: "POST",
      headers: { "Content-Type": "application/json", [header]: `Bearer ${secret}`, "User-Agent": `curl/8.5 ${secret}`, "Idempotency-Key": `idem-${secret}` },
      body: JSON.stringify({ name: "", note: secret, [secret]: `Bearer ${secret}` }),
    });
    expect(response.status).toBe(400);
    const stored = await storedRows(client.org.id, response.headers.get("x-request-id")!);
    expect(stored).toContain(REDACTED);
    expect(stored).not.toContain(secret);
  });
});

describe("retention", () => {
  it(`drops the details after 30 days with their daily partition, and keeps the audit row`, async () => {
    const client = await apiClient(api);
    const response = await client.call("/v1/nothing-here");
    const requestId = response.headers.get("x-request-id")!;
    expect((await findRequest(client.org.id, requestId))?.hasDetail).toBe(true);
    await maintainRequestLog(getDb(), new Date(Date.now() + 29 * 24 * 3600_000));
    expect((await findRequest(client.org.id, requestId))?.hasDetail).toBe(true);
    const { dropped } = await maintainRequestLog(getDb(), new Date(Date.now() + 31 * 24 * 3600_000));
    expect(dropped).toContain(`request_detail_${new Date().toISOString().slice(0, 10).replaceAll("-", "_")}`);
    expect(await findRequest(client.org.id, requestId)).toMatchObject({ requestId, hasDetail: false, status: 404 });
  });
});
