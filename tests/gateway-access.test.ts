import { and, eq } from "drizzle-orm";
import { afterEach, beforeAll, describe, expect, it, onTestFinished, vi } from "vitest";
import { getDb } from "@/db";
import { rateLimitWindows, requestLog } from "@/db/schema";
import { API_RESOURCE_NAMES, API_RESOURCES, permissionRank, type ApiResource, type Permission } from "@/core/enums";
import { accessCovers, requiredAccess } from "@/lib/keys/access";
import { countedThisMonth } from "./helpers/usage";
import { contractApi, errorOf, itMatchesTheDocument } from "./helpers/api-contract";
import { createOrg, insertKey } from "./helpers/factories";

let frozenAt: number | null = null;
const api = contractApi({ clock: () => frozenAt ?? Date.now() });

interface Route {
  method: string;
  template: string;
  path: string;
}

/** Every operation of the served document, with its path parameters filled in. */
let routes: Route[] = [];
beforeAll(async () => {
  const doc = (await (await fetch(api.url("/v1/openapi.json"))).json()) as { paths: Record<string, Record<string, unknown>> };
  routes = Object.entries(doc.paths).flatMap(([template, operations]) =>
    Object.keys(operations)
      .filter((method) => ["get", "post", "patch", "put", "delete"].includes(method))
      .map((method) => ({ method: method.toUpperCase(), template, path: template.replace(/\{[^}]+\}/g, "x_0000") })),
  );
});

function send(route: Route, key: string, headers: Record<string, string> = {}) {
  return api.request(route.path, { method: route.method, key, headers, ...(route.method === "GET" ? {} : { json: {} }) });
}

async function logged(orgId: string, requestId: string) {
  const [row] = await getDb()
    .select()
    .from(requestLog)
    .where(and(eq(requestLog.orgId, orgId), eq(requestLog.requestId, requestId)));
  return row;
}

describe("the resource table", () => {
  it("gives every operation of the document a resource, so a new route cannot be left unguarded", () => {
    expect(routes.length).toBeGreaterThanOrEqual(20);
    const unguarded = routes.filter((route) => !requiredAccess(route.method, route.template));
    expect(unguarded).toEqual([]);
    // And every resource of the table has operations.
    expect(new Set(routes.map((route) => requiredAccess(route.method, route.template)!.resource))).toEqual(new Set(API_RESOURCE_NAMES));
  });
});

describe("access per resource, permission and method", () => {
  it("admits a restricted key exactly where its permission covers the request, on every operation", async () => {
    const org = await createOrg("enterprise", { rateLimitPerMinute: 100_000 });
    const cells: { resource: ApiResource; held: Permission | "none"; route: Route }[] = [];
    const keys = new Map<string, string>();
    for (const resource of API_RESOURCE_NAMES) {
      for (const held of ["none", ...API_RESOURCES[resource].permissions] as const) {
        const { value } = await insertKey(org.id, { access: "restricted", scopes: held === "none" ? {} : { [resource]: held } });
        keys.set(`${resource}:${held}`, value);
        for (const route of routes) cells.push({ resource, held, route });
      }
    }
    // Each key holds one permission on one resource: every operation, of its resource and of the others, is a cell.
    const outcomes = await Promise.all(
      cells.map(async ({ resource, held, route }) => {
        const need = requiredAccess(route.method, route.template)!;
        const heldThere = need.resource === resource && held !== "none" ? held : undefined;
        const allowed = permissionRank(need.resource, heldThere) >= permissionRank(need.resource, need.permission);
        // The dashboard's reading of the rule (the seed's traffic follows it) agrees with the statement's.
        expect(accessCovers("restricted", held === "none" ? {} : { [resource]: held }, route.method, route.template)).toBe(allowed);
        const response = await send(route, keys.get(`${resource}:${held}`)!);
        const body = response.status === 403 ? await errorOf(response) : null;
        return {
          cell: `${resource}=${held} ${route.method} ${route.template}`,
          allowed,
          status: response.status,
          code: body?.code,
          message: body?.message,
          need,
        };
      }),
    );
    const wrong = outcomes.filter((o) => o.allowed === (o.code === "api_key_scope_insufficient"));
    expect(wrong.map((o) => `${o.cell}: ${o.status} ${o.code ?? ""}`)).toEqual([]);
    for (const refused of outcomes.filter((o) => !o.allowed)) {
      expect(refused.message).toContain(`${refused.need.permission} permission on ${API_RESOURCES[refused.need.resource].noun}`);
    }
    expect(outcomes.filter((o) => o.allowed).length).toBeGreaterThan(0);
    expect(outcomes.filter((o) => !o.allowed).length).toBeGreaterThan(0);
  });

  it("lets a read-only key send GET to every resource and nothing else; a full-access key everything", async () => {
    const org = await createOrg("enterprise", { rateLimitPerMinute: 100_000 });
    const { value: readOnly } = await insertKey(org.id, { access: "read_only" });
    const { value: full } = await insertKey(org.id, { access: "full" });
    for (const route of routes) {
      const response = await send(route, readOnly);
      const code = response.status === 403 ? (await errorOf(response)).code : null;
      expect(code === "api_key_scope_insufficient", `${route.method} ${route.template}`).toBe(route.method !== "GET");
      expect(accessCovers("read_only", {}, route.method, route.template)).toBe(route.method === "GET");
      const byFull = await send(route, full);
      expect(byFull.status, `${route.method} ${route.template} with full access`).not.toBe(403);
    }
    const refused = await send({ method: "POST", template: "/v1/invoices", path: "/v1/invoices" }, readOnly);
    expect((await errorOf(refused)).message).toMatch(
      /^This API key is read only: it cannot write invoices\. The request needs the write permission on invoices\./,
    );
    // A path of no route is the same 404 for every key, whatever its method (docs/features/api.md).
    expect((await api.request("/v1/nothing-here", { key: readOnly })).status).toBe(404);
    expect((await errorOf(await api.request("/v1/nothing-here", { method: "POST", key: readOnly, json: {} }))).code).toBe("route_not_found");
  });

  it("logs a scope refusal with its code, and counts it in neither the minute nor the month", async () => {
    const org = await createOrg("pro");
    const { id, value } = await insertKey(org.id, { access: "restricted", scopes: { analytics: "read" } });
    const refused = await api.request("/v1/invoices", { key: value });
    expect(refused.status).toBe(403);
    expect(refused.headers.get("x-ratelimit-remaining")).toBeNull();
    const error = await errorOf(refused);
    expect(error.message).toBe(
      "This API key cannot read invoices. The request needs the read permission on invoices. An admin can change the key's access in the dashboard.",
    );
    expect(await logged(org.id, error.request_id)).toMatchObject({ apiKeyId: id, status: 403, errorCode: "api_key_scope_insufficient" });
    expect(await countedThisMonth(org.id)).toBe(0);
    expect(await getDb().select().from(rateLimitWindows).where(eq(rateLimitWindows.apiKeyId, id))).toEqual([]);
    const allowed = await api.request("/v1/analytics", { key: value });
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get("x-ratelimit-remaining")).toBe("59");
    expect(await countedThisMonth(org.id)).toBe(1);
    const ok = await logged(org.id, allowed.headers.get("x-request-id")!);
    expect(ok?.errorCode).toBeNull();
  });
});

describe("IP allowlists", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  async function callFrom(allowlist: string[], forwardedFor?: string) {
    const org = await createOrg("pro");
    const { value } = await insertKey(org.id, { ipAllowlist: allowlist });
    const response = await api.request("/v1/products", { key: value, headers: forwardedFor ? { "X-Forwarded-For": forwardedFor } : {} });
    return { org, response, error: response.status === 200 ? null : await errorOf(response) };
  }

  it("admits the socket's IPv4 address when it is listed exactly or inside a range", async () => {
    expect((await callFrom(["127.0.0.1"])).response.status).toBe(200);
    expect((await callFrom(["203.0.113.10", "127.0.0.0/8"])).response.status).toBe(200);
  });

  it("refuses any other address with 403 ip_not_allowed, naming it, logged and not counted", async () => {
    const { org, response, error } = await callFrom(["203.0.113.10", "10.0.0.0/8", "2001:db8::/32"]);
    expect(response.status).toBe(403);
    expect(error!.code).toBe("ip_not_allowed");
    expect(error!.message).toContain("from 127.0.0.1");
    expect(await logged(org.id, error!.request_id)).toMatchObject({ status: 403, errorCode: "ip_not_allowed", ip: "127.0.0.1" });
    expect(await countedThisMonth(org.id)).toBe(0);
  });

  it("ignores X-Forwarded-For unless TRUST_PROXY says a proxy of ours sets it", async () => {
    expect((await callFrom(["203.0.113.10"], "203.0.113.10")).error!.code).toBe("ip_not_allowed");
    vi.stubEnv("TRUST_PROXY", "true");
    // Our proxy appends what it saw to whatever the client sent: the right-most entry is the client.
    expect((await callFrom(["203.0.113.10"], "10.0.0.1, 203.0.113.10")).response.status).toBe(200);
    expect((await callFrom(["203.0.113.0/24"], "203.0.113.99")).response.status).toBe(200);
    expect((await callFrom(["203.0.113.0/24"], "203.0.114.1")).error!.code).toBe("ip_not_allowed");
  });

  it("matches IPv6 addresses and ranges, and an IPv4 client seen through IPv6 as its IPv4 address", async () => {
    vi.stubEnv("TRUST_PROXY", "true");
    expect((await callFrom(["2001:db8::/32"], "2001:db8:0:0:0:0:0:5")).response.status).toBe(200);
    expect((await callFrom(["2001:db8::5"], "2001:DB8::5")).response.status).toBe(200);
    expect((await callFrom(["2001:db8::/32"], "2001:db9::1")).error!.code).toBe("ip_not_allowed");
    expect((await callFrom(["203.0.113.10"], "::ffff:203.0.113.10")).response.status).toBe(200);
    // An IPv4 range never admits an IPv6 client, nor the reverse.
    expect((await callFrom(["0.0.0.0/0"], "2001:db8::1")).error!.code).toBe("ip_not_allowed");
    expect((await callFrom(["::/0"], "203.0.113.10")).error!.code).toBe("ip_not_allowed");
  });

  it("refuses an address it cannot read instead of failing", async () => {
    vi.stubEnv("TRUST_PROXY", "true");
    const { response, error } = await callFrom(["203.0.113.10"], "not-an-address");
    expect(response.status).toBe(403);
    expect(error!.message).toContain("from an address the server cannot read");
    // A key without an allowlist does not care.
    expect((await callFrom([], "not-an-address")).response.status).toBe(200);
  });
});

describe("the order of the checks", () => {
  it("calls a revoked or expired key so even from a refused address", async () => {
    const org = await createOrg("pro");
    const { value: revoked } = await insertKey(org.id, { revoked: true, ipAllowlist: ["203.0.113.10"] });
    const { value: expired } = await insertKey(org.id, { expiresAt: new Date(Date.now() - 1000), ipAllowlist: ["203.0.113.10"] });
    expect((await errorOf(await api.request("/v1/products", { key: revoked }))).code).toBe("api_key_revoked");
    expect((await errorOf(await api.request("/v1/products", { key: expired }))).code).toBe("api_key_expired");
  });

  it("checks the address before the plan, and the plan before the access", async () => {
    const solo = await createOrg("solo");
    const { value: fromElsewhere } = await insertKey(solo.id, { ipAllowlist: ["203.0.113.10"], access: "read_only" });
    const { value: readOnly } = await insertKey(solo.id, { access: "read_only" });
    expect((await errorOf(await api.request("/v1/products", { key: fromElsewhere }))).code).toBe("ip_not_allowed");
    expect((await errorOf(await api.request("/v1/products", { method: "POST", key: readOnly, json: {} }))).code).toBe("plan_no_api_access");
  });

  it("rate-limits a read-only key's GETs and refuses its POSTs with 403 without using the limit", async () => {
    const org = await createOrg("enterprise", { rateLimitPerMinute: 3 });
    const { id, value } = await insertKey(org.id, { access: "read_only" });
    // One minute for the whole test: a window boundary would start the count again.
    frozenAt = Date.now();
    onTestFinished(() => {
      frozenAt = null;
    });
    const gets = [];
    for (let i = 0; i < 4; i++) gets.push((await api.request("/v1/products", { key: value })).status);
    expect(gets).toEqual([200, 200, 200, 429]);
    const post = await api.request("/v1/products", { method: "POST", key: value, json: { name: "Widget" } });
    expect(post.status).toBe(403);
    expect((await errorOf(post)).code).toBe("api_key_scope_insufficient");
    const [window] = await getDb().select().from(rateLimitWindows).where(eq(rateLimitWindows.apiKeyId, id));
    expect(window!.count).toBe(4);
  });
});

itMatchesTheDocument(api, 150);
