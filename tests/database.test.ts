import { count, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { migrateDatabase } from "@/db/migrate";
import { ensureRequestLogPartitions, maintainRequestLog } from "@/db/partitions";
import { rowsOf } from "@/db/rows";
import { REQUEST_LOG_RETENTION_MONTHS } from "@/core/usage-grains";
import { checkPassword } from "@/lib/auth/credentials";
import { apiKeys, memberships, organizations, requestDailyRollup, requestLog, users } from "@/db/schema";
import { listInvoices } from "@/lib/api/services/invoices";
import { analytics } from "@/lib/api/services/analytics";
import { utcDay } from "@/core/time";
import { seedDatabase } from "@/seed";
import { DEMO_PASSWORD, DEMO_USERS } from "@/seed/accounts";
import { listActivity } from "@/db/queries/activity";
import { listAuditLog } from "@/db/queries/audit-log";
import { listApiKeys } from "@/db/queries/api-keys";
import { listWebhookDeliveries, listWebhookEndpoints } from "@/db/queries/webhooks";
import { webhookCredentials } from "@/core/sealed-secret";

async function counts() {
  const db = getDb();
  const [[u], [o], [m], [k], [r], [d]] = await Promise.all([
    db.select({ n: count() }).from(users),
    db.select({ n: count() }).from(organizations),
    db.select({ n: count() }).from(memberships),
    db.select({ n: count() }).from(apiKeys),
    db.select({ n: count() }).from(requestLog),
    db.select({ n: sql<number>`coalesce(sum(${requestDailyRollup.count}), 0)::int` }).from(requestDailyRollup),
  ]);
  return { users: u!.n, orgs: o!.n, memberships: m!.n, keys: k!.n, requests: r!.n, rolledUp: d!.n };
}

describe("migrations", () => {
  it("applied to the empty database and re-run cleanly", async () => {
    await migrateDatabase();
    await migrateDatabase();
    const tables = rowsOf<{ name: string }>(await getDb().execute(sql`select tablename as name from pg_tables where schemaname = 'public'`)).map((t) => t.name);
    expect(tables).toEqual(
      expect.arrayContaining(["users", "organizations", "memberships", "api_keys", "request_log", "request_daily_rollup", "activity_log"]),
    );
  });

  it("partitions the request log by month", async () => {
    const [row] = rowsOf<{ strategy: string }>(
      await getDb().execute(sql`select partstrat as strategy from pg_partitioned_table where partrelid = 'request_log'::regclass`),
    );
    expect(row?.strategy).toBe("r");
    const month = new Date().toISOString().slice(0, 7).replace("-", "_");
    const [partition] = rowsOf<{ exists: boolean }>(await getDb().execute(sql`select to_regclass(${`request_log_${month}`}) is not null as exists`));
    expect(partition?.exists).toBe(true);
  });
});

describe("request-log retention", () => {
  const partitionExists = async (name: string) =>
    rowsOf<{ exists: boolean }>(await getDb().execute(sql`select to_regclass(${name}) is not null as exists`))[0]!.exists;

  it(`keeps ${REQUEST_LOG_RETENTION_MONTHS} months, drops older partitions and rollups, and creates the coming months`, async () => {
    const now = new Date();
    const month = (offset: number) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + offset, 10));
    const nameOf = (date: Date) => `request_log_${date.toISOString().slice(0, 7).replace("-", "_")}`;
    const [tooOld, oldestKept] = [month(-REQUEST_LOG_RETENTION_MONTHS), month(-(REQUEST_LOG_RETENTION_MONTHS - 1))];
    const db = getDb();
    await ensureRequestLogPartitions(db, tooOld, oldestKept);
    await db.execute(sql`insert into organizations (id, name, slug, plan) values ('org_retention', 'Retention', 'retention', 'pro')`);
    await db.execute(
      sql`insert into api_keys (id, org_id, name, mode, key_hash, hint) values ('key_retention', 'org_retention', 'Old', 'live', 'hash-retention', 'ik_xxxx…xxxx')`,
    );
    for (const at of [tooOld, oldestKept]) {
      await db.execute(sql`insert into request_log (org_id, api_key_id, request_id, method, path, endpoint, status, duration_ms, created_at)
        values ('org_retention', 'key_retention', ${`req_${at.getTime()}`}, 'GET', '/v1/invoices', 'GET /v1/invoices', 200, 5, ${at.toISOString()})`);
      await db.execute(sql`insert into request_daily_rollup (org_id, api_key_id, day, endpoint, status, count)
        values ('org_retention', 'key_retention', ${at.toISOString().slice(0, 10)}, 'GET /v1/invoices', 200, 1)`);
    }

    expect(await maintainRequestLog(db, now)).toEqual({ dropped: [nameOf(tooOld)] });
    expect(await partitionExists(nameOf(tooOld))).toBe(false);
    expect(await partitionExists(nameOf(oldestKept))).toBe(true);
    for (const offset of [-1, 0, 1, 2]) expect(await partitionExists(nameOf(month(offset)))).toBe(true);
    const days = rowsOf<{ day: string }>(await db.execute(sql`select day::text as day from request_daily_rollup where org_id = 'org_retention'`)).map(
      (r) => r.day,
    );
    expect(days).toEqual([oldestKept.toISOString().slice(0, 10)]);
    expect(await maintainRequestLog(db, now)).toEqual({ dropped: [] });

    // Leave the database as the seed's tests expect it: no organization of this test's own.
    for (const table of ["request_log", "request_daily_rollup", "api_keys"]) await db.execute(sql.raw(`delete from ${table} where org_id = 'org_retention'`));
    await db.execute(sql`delete from organizations where id = 'org_retention'`);
  });
});

describe("the seed", () => {
  // Seeded once for the file; the tests that re-run it check that a re-run changes nothing.
  beforeAll(() => seedDatabase(getDb()));

  it("creates the demo organizations, one user per role, keys and 30 days of traffic, and re-runs cleanly", async () => {
    const first = await counts();
    expect(first.orgs).toBe(3);
    expect(first.users).toBe(DEMO_USERS.length);
    expect(first.keys).toBeGreaterThanOrEqual(4);
    expect(first.requests).toBeGreaterThan(3000);
    expect(first.rolledUp).toBe(first.requests);
    await seedDatabase(getDb());
    expect(await counts()).toEqual(first);
  });

  it("gives Acme test books and test traffic that only the test mode sees, numbered on their own", async () => {
    const test = { orgId: "org_demo_acme", mode: "test" } as const;
    const page = await listInvoices(test, { limit: 10 });
    expect(page.data.map((invoice) => [invoice.status, invoice.number, invoice.livemode])).toEqual([
      ["draft", null, false],
      ["open", "INV-000004", false],
      ["void", "INV-000003", false],
      ["paid", "INV-000002", false],
      ["paid", "INV-000001", false],
    ]);
    expect((await listInvoices({ orgId: "org_demo_acme", mode: "live" }, { limit: 10 })).data).toEqual([]);
    expect((await analytics(test, { from: "2000-01-01", to: utcDay(new Date()) })).invoice_counts).toMatchObject({ paid: 2, open: 1, void: 1, draft: 1 });
    // Its CI key's calls are the test mode's traffic, and only its.
    const testRows = (await listAuditLog(test, {}, { pageSize: 50 })).rows;
    expect(testRows.length).toBeGreaterThan(0);
    expect(new Set(testRows.map((row) => row.keyId))).toEqual(new Set(["key_demo_acme_test"]));
    const liveRows = (await listAuditLog({ ...test, mode: "live" }, {}, { pageSize: 500 })).rows;
    expect(liveRows.some((row) => row.keyId === "key_demo_acme_test")).toBe(false);
  });

  it("gives traffic a mix of statuses and endpoints within the last 30 days", async () => {
    const statuses = rowsOf<{ status: number }>(await getDb().execute(sql`select distinct status from request_log`)).map((r) => Number(r.status));
    expect(statuses).toEqual(expect.arrayContaining([200, 201, 400, 404, 429, 500]));
    const [span] = rowsOf<{ days: number; endpoints: number }>(
      await getDb().execute(
        sql`select count(distinct (created_at at time zone 'UTC')::date)::int as days, count(distinct endpoint)::int as endpoints from request_log`,
      ),
    );
    expect(span!.days).toBeGreaterThanOrEqual(29); // today may have had no traffic yet just after midnight
    expect(span!.endpoints).toBeGreaterThanOrEqual(8);
  });

  it("shows every state of a key's life in Acme, with its history", async () => {
    const now = Date.now();
    const keys = new Map((await listApiKeys("org_demo_acme")).map((key) => [key.id, key]));
    const partner = keys.get("key_demo_acme_partner")!;
    expect(partner).toMatchObject({ status: "active", lastUsedAt: null });
    expect(Date.parse(partner.expiresAt!) - now).toBeGreaterThan(2.9 * 86_400_000);
    expect(Date.parse(partner.expiresAt!) - now).toBeLessThanOrEqual(3 * 86_400_000);
    expect(now - Date.parse(partner.createdAt)).toBeGreaterThan(30 * 86_400_000);
    expect(keys.get("key_demo_acme_loadtest")).toMatchObject({ status: "expired" });
    expect(keys.get("key_demo_acme_legacy")).toMatchObject({ status: "revoked", revokeReason: "replaced" });
    const rolled = keys.get("key_demo_acme_zapier_old")!;
    expect(rolled).toMatchObject({ status: "active", replacedBy: { id: "key_demo_acme_zapier" } });
    expect(keys.get("key_demo_acme_zapier")).toMatchObject({ replaces: { id: "key_demo_acme_zapier_old" } });
    // Still called during its overlap, after the roll.
    expect(Date.parse(rolled.lastUsedAt!)).toBeGreaterThan(Date.parse(rolled.replacedBy!.at));
    const history = await listActivity("org_demo_acme", {}, { pageSize: 50 });
    const actions = (keyId: string) => history.rows.filter((row) => row.targetId === keyId).map((row) => row.action);
    expect(actions("key_demo_acme_zapier_old").sort()).toEqual(["api_key.created", "api_key.rolled"]);
    expect(actions("key_demo_acme_loadtest").sort()).toEqual(["api_key.created", "api_key.expired"]);
    expect(actions("key_demo_acme_legacy").sort()).toEqual(["api_key.created", "api_key.revoked"]);
  });

  it("shows a read-only key and a restricted, IP-restricted pair whose refused calls are logged with their code", async () => {
    const keys = new Map((await listApiKeys("org_demo_acme")).map((key) => [key.id, key]));
    expect(keys.get("key_demo_acme_partner")).toMatchObject({ access: "read_only", ipAllowlist: [] });
    for (const id of ["key_demo_acme_zapier_old", "key_demo_acme_zapier"]) {
      expect(keys.get(id)).toMatchObject({ access: "restricted", scopes: { invoices: "write", customers: "write" }, ipAllowlist: ["203.0.113.52/31"] });
    }
    const refusals = rowsOf<{ error_code: string; status: number; allowed: boolean }>(
      await getDb().execute(sql`select distinct error_code, status, ip::inet <<= '203.0.113.52/31'::inet as allowed from request_log
        where api_key_id in ('key_demo_acme_zapier_old', 'key_demo_acme_zapier') and status = 403`),
    );
    expect(refusals).toEqual(
      expect.arrayContaining([
        { error_code: "ip_not_allowed", status: 403, allowed: false },
        { error_code: "api_key_scope_insufficient", status: 403, allowed: true },
      ]),
    );
    // Everything it was not refused is within its access.
    const reached = rowsOf<{ endpoint: string }>(
      await getDb().execute(sql`select distinct endpoint from request_log where api_key_id = 'key_demo_acme_zapier_old' and status <> 403`),
    ).map((row) => row.endpoint.split(" ")[1]!.split("/")[2]);
    expect(new Set(reached)).toEqual(new Set(["invoices", "customers"]));
  });

  it("shows a webhook endpoint an admin turned off, with delivered, retried and given-up deliveries in its log", async () => {
    await seedDatabase(getDb());
    const [endpoint, ...others] = await listWebhookEndpoints("org_demo_acme");
    expect(others).toEqual([]);
    expect(endpoint).toMatchObject({ enabled: false, disabledReason: "manual" });
    const [stored] = rowsOf<{ secret: string }>(await getDb().execute(sql`select signing_secret as secret from webhook_endpoints where id = ${endpoint!.id}`));
    // Sealed like every endpoint's (docs/security.md#secrets-at-rest), and shown by its end alone.
    const secret = webhookCredentials.open(stored!.secret);
    expect(secret).toMatch(/^whsec_/);
    expect(endpoint!.secretHint).toBe(`whsec_…${secret.slice(-4)}`);
    expect(JSON.stringify(endpoint)).not.toContain(secret);
    const log = await listWebhookDeliveries("org_demo_acme", endpoint!.id, 50);
    expect(log.map((delivery) => [delivery.eventType, delivery.status, delivery.attempts, delivery.responseStatus])).toEqual([
      ["webhook.test", "failed", 11, 410],
      ["key.revoked", "succeeded", 3, 200],
      ["key.expired", "succeeded", 1, 204],
      ["key.created", "succeeded", 1, 200],
    ]);
    // Off: the demo never sends to its made-up address, so the seed's key events queued nothing.
    const [pending] = rowsOf<{ n: number }>(await getDb().execute(sql`select count(*)::int as n from webhook_deliveries where status = 'pending'`));
    expect(pending!.n).toBe(0);
    const history = await listActivity("org_demo_acme", {}, { pageSize: 100 });
    expect(history.rows.filter((row) => row.targetId === endpoint!.id).map((row) => row.action)).toEqual([
      "webhook_endpoint.disabled",
      "webhook_endpoint.test_sent",
      "webhook_endpoint.created",
    ]);
  });

  it("lets every demo user sign in with the demo password, and nobody with a wrong one", async () => {
    for (const user of DEMO_USERS) expect(await checkPassword(user.email, DEMO_PASSWORD)).toMatchObject({ id: user.id, email: user.email });
    expect(await checkPassword(DEMO_USERS[0]!.email, "wrong-password")).toBeNull();
    expect(await checkPassword("nobody@acme.test", DEMO_PASSWORD)).toBeNull();
  });
});

describe("statements on PostgreSQL", () => {
  it.skipIf(!process.env.DATABASE_URL)("sends drizzle's queries as named prepared statements, planned once per connection", async () => {
    // A statement sees itself in pg_prepared_statements only when it was prepared under a name.
    const [row] = rowsOf<{ prepared: number }>(
      await getDb().execute(
        sql`select count(*)::int as prepared /* prepared-statement-probe */ from pg_prepared_statements where statement like ${"%prepared-statement-probe%"} and not from_sql`,
      ),
    );
    expect(row?.prepared).toBe(1);
  });
});
