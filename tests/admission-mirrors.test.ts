import { beforeAll, describe, expect, it } from "vitest";
import { API_RESOURCE_NAMES, API_RESOURCES, type KeyAccess, type KeyScopes, type Permission } from "@/core/enums";
import { keyStatus } from "@/core/key-status";
import { BUDGET_PERIOD_VALUES, budgetPeriodEnd, budgetPeriodStart } from "@/core/key-budget";
import { admissionFor, type Admission } from "@/db/queries/gateway";
import { withinRateLimit } from "@/core/rate-window";
import { createApiApp } from "@/lib/api/app";
import { PLAN_RULES } from "@/lib/api/gateway";
import { DEFAULT_RATE_LIMIT_PER_MINUTE } from "@/lib/plans/catalog";
import { accessCovers, describeScopes, isSafeMethod, PERMISSION_LABELS, requiredAccess } from "@/lib/keys/access";
import { hashApiKey } from "@/lib/keys/format";
import { createOrg, insertKey } from "./helpers/factories";

/**
 * The gateway's admission statement (db/queries/admission-statement.ts) decides every request; a few rules are
 * also read in TypeScript, for pages, the roll and the seed. Each such mirror is held here to the
 * statement itself, so a change to one without the other fails.
 */

const admit = admissionFor(PLAN_RULES);

interface Operation {
  method: string;
  template: string;
}

/** Every operation of the served document. */
let operations: Operation[] = [];
beforeAll(async () => {
  const doc = (await (await createApiApp().request("/v1/openapi.json")).json()) as { paths: Record<string, Record<string, unknown>> };
  operations = Object.entries(doc.paths).flatMap(([template, methods]) =>
    Object.keys(methods)
      .filter((method) => ["get", "post", "patch", "put", "delete"].includes(method))
      .map((method) => ({ method: method.toUpperCase(), template })),
  );
});

function ask(key: string, operation: Operation, at = new Date()) {
  return admit({
    keyHash: hashApiKey(key),
    at,
    need: requiredAccess(operation.method, operation.template),
    safe: isSafeMethod(operation.method),
    ip: "127.0.0.1",
  });
}

/** Every access a key can have: full, read only, and each single permission of each resource, none included. */
function everyAccess(): { access: KeyAccess; scopes: KeyScopes }[] {
  const restricted = API_RESOURCE_NAMES.flatMap((resource) =>
    (["none", ...API_RESOURCES[resource].permissions] as const).map((held) => ({
      access: "restricted" as const,
      scopes: held === "none" ? {} : { [resource]: held },
    })),
  );
  // And one key holding a permission on every resource at once.
  const mixed = { access: "restricted" as const, scopes: { invoices: "write", customers: "read", analytics: "read", pdf: "generate" } as KeyScopes };
  return [{ access: "full", scopes: {} }, { access: "read_only", scopes: {} }, ...restricted, mixed];
}

describe("mirrors of the admission statement", () => {
  it("accessCovers and the key page's describeScopes admit exactly what the statement admits, on every operation", async () => {
    const org = await createOrg("enterprise", { rateLimitPerMinute: 1_000_000 });
    const cells = await Promise.all(
      everyAccess().map(async ({ access, scopes }) => {
        const { value } = await insertKey(org.id, { access, scopes });
        const lines = new Map(describeScopes(access, scopes).map((line) => [line.resource, line.can.split(" and ")]));
        return Promise.all(
          operations.map(async (operation) => {
            const admission = (await ask(value, operation))!;
            const need = requiredAccess(operation.method, operation.template)!;
            const shown = lines.get(need.resource)!.includes(PERMISSION_LABELS[need.permission as Permission]);
            return {
              cell: `${access} ${JSON.stringify(scopes)} ${operation.method} ${operation.template}`,
              statement: admission.scopeAllowed,
              covers: accessCovers(access, scopes, operation.method, operation.template),
              shown,
            };
          }),
        );
      }),
    );
    const all = cells.flat();
    expect(all.length).toBeGreaterThanOrEqual(15 * 20);
    expect(all.filter((cell) => cell.covers !== cell.statement).map((cell) => cell.cell)).toEqual([]);
    expect(all.filter((cell) => cell.shown !== cell.statement).map((cell) => cell.cell)).toEqual([]);
    // Both outcomes occur, so the comparison is not vacuous.
    expect(new Set(all.map((cell) => cell.statement))).toEqual(new Set([true, false]));
  });

  it("keyStatus calls a key expired from the same instant the statement refuses it, and revoked when it is", async () => {
    const org = await createOrg("enterprise", { rateLimitPerMinute: 1_000_000 });
    const expiresAt = new Date(Date.now() + 60_000);
    const { value: expiring } = await insertKey(org.id, { expiresAt });
    const { value: revoked } = await insertKey(org.id, { revoked: true });
    const operation = { method: "GET", template: "/v1/invoices" };
    for (const offset of [-1, 0, 1]) {
      const at = new Date(expiresAt.getTime() + offset);
      const admission = (await ask(expiring, operation, at))!;
      expect(admission.expired, `${offset} ms from the expiry`).toBe(keyStatus({ revokedAt: null, expiresAt }, at) === "expired");
      expect(admission.expired).toBe(offset >= 0);
    }
    const admission = (await ask(revoked, operation))!;
    expect(admission.revoked).toBe(true);
    expect(keyStatus({ revokedAt: new Date(), expiresAt: null }, new Date())).toBe("revoked");
  });

  it("withinRateLimit refuses exactly the requests the statement leaves out of the month", async () => {
    const org = await createOrg("pro"); // the default rate limit and a quota with room
    const { value } = await insertKey(org.id);
    const operation = { method: "GET", template: "/v1/invoices" };
    const at = new Date();
    const admissions = (await Promise.all(Array.from({ length: DEFAULT_RATE_LIMIT_PER_MINUTE + 5 }, () => ask(value, operation, at)))) as Admission[];
    const counts = admissions.map((a) => a.rateCount!).sort((a, b) => a - b);
    expect(counts).toEqual(Array.from({ length: DEFAULT_RATE_LIMIT_PER_MINUTE + 5 }, (_, i) => i + 1));
    const disagree = admissions.filter((a) => a.quotaCounted !== withinRateLimit(a.rateCount!, a.rateLimit));
    expect(disagree.map((a) => `${a.rateCount} of ${a.rateLimit}: counted ${a.quotaCounted}`)).toEqual([]);
    expect(admissions.filter((a) => !withinRateLimit(a.rateCount!, a.rateLimit))).toHaveLength(5);
  });

  it("budgetPeriodStart and budgetPeriodEnd give the UTC day, week (from Monday) and month the statement counts a request in", async () => {
    const org = await createOrg("enterprise", { rateLimitPerMinute: 1_000_000 });
    const operation = { method: "GET", template: "/v1/invoices" };
    // Each period's edges (a month of 28, 30 and 31 days, a leap day, a year's end, each weekday) and random instants.
    const edges = [
      "2026-11-30T00:00:00Z",
      "2026-11-29T23:59:59.999Z",
      "2026-12-31T23:59:59.999Z",
      "2027-01-01T00:00:00Z",
      "2028-02-29T12:00:00Z",
      "2027-02-28T23:59:59.999Z",
      "2027-03-01T00:00:00Z",
    ];
    const random = Array.from({ length: 40 }, (_, i) =>
      new Date(Date.UTC(2026, 0, 1) + Math.floor((((i * 7919) % 1000) / 1000) * 3 * 365 * 86_400_000)).toISOString(),
    );
    const days = Array.from({ length: 8 }, (_, i) => new Date(Date.UTC(2026, 10, 23 + i, i % 2 ? 23 : 0, i % 2 ? 59 : 0)).toISOString());
    const times = [...edges, ...random, ...days].map((text) => new Date(text));
    for (const period of BUDGET_PERIOD_VALUES) {
      const { value } = await insertKey(org.id, { budget: { limit: 1_000_000, period } });
      for (const at of times) {
        const admission = (await ask(value, operation, at))!;
        const start = budgetPeriodStart(at, period);
        expect(new Date(admission.budget!.periodStart).toISOString(), `${period} of ${at.toISOString()}`).toBe(start.toISOString());
        expect(admission.budget!.resetsAt * 1000, `${period} of ${at.toISOString()} ends`).toBe(budgetPeriodEnd(start, period).getTime());
        expect(start <= at && at < budgetPeriodEnd(start, period)).toBe(true);
      }
    }
  });
});
