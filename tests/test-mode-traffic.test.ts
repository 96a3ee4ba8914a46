import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db";
import type { Mode } from "@/core/enums";
import { listAuditLog } from "@/db/queries/audit-log";
import { tailRows } from "@/db/queries/live-tail";
import { callsThisMonth } from "@/db/queries/monthly-usage";
import { foldPendingRollups } from "@/db/rollups/fold";
import { buildUsageSnapshots } from "@/lib/usage/snapshots";
import { getAuditFilterOptions } from "@/lib/usage/filter-options";
import { usageRows } from "@/lib/usage/rows";
import { usageReport } from "@/lib/usage/report";
import { usageWindow } from "@/lib/usage/filters";
import { createOrg, insertKey } from "./helpers/factories";
import { logRequest } from "./helpers/request-log";
import { contractApi, itMatchesTheDocument } from "./helpers/api-contract";

// A request's mode is its key's (docs/features/test-mode.md#traffic): every view of the traffic
// shows one mode's, whichever way it is read (time order or per combination, rollups or
// snapshots, the live tail, GET /v1/usage).

const api = contractApi();
const DAY = 86_400_000;
const now = new Date();

let orgId: string;
const keys = {} as Record<Mode, { id: string; value: string }>;
/** Requests logged per mode: live ones on GET /v1/invoices, test ones on POST /v1/customers with 404s among them. */
const logged: Record<Mode, number> = { live: 0, test: 0 };

beforeAll(async () => {
  orgId = (await createOrg("enterprise", { rateLimitPerMinute: 100_000 })).id;
  keys.live = await insertKey(orgId, { name: "Production" });
  keys.test = await insertKey(orgId, { name: "CI", mode: "test" });
  // Days ago, so closed days are read from snapshots; and now, from the rollups and the pending rows.
  const writes: Promise<unknown>[] = [];
  for (let day = 0; day < 4; day++) {
    const at = new Date(now.getTime() - day * DAY - 60_000);
    for (let i = 0; i < 30; i++) writes.push(logRequest({ orgId, apiKeyId: keys.live.id, at, endpoint: "GET /v1/invoices" }));
    for (let i = 0; i < 3; i++) writes.push(logRequest({ orgId, apiKeyId: keys.test.id, at, endpoint: "POST /v1/customers", status: i === 0 ? 404 : 201 }));
    logged.live += 30;
    logged.test += 3;
  }
  await Promise.all(writes);
  await foldPendingRollups(getDb());
  await buildUsageSnapshots(getDb(), now);
});

const books = (mode: Mode) => ({ orgId, mode });

describe.each(["live", "test"] as const)("the %s traffic", (mode) => {
  const own = () => keys[mode].id;

  it("is the whole audit log of its mode, in time order and per combination", async () => {
    for (const route of ["time-order", "by-combination"] as const) {
      const rows = (await listAuditLog(books(mode), {}, { now, pageSize: 500, route })).rows;
      expect(rows, route).toHaveLength(logged[mode]);
      expect(new Set(rows.map((row) => row.keyId)), route).toEqual(new Set([own()]));
    }
    // The route the page chooses by itself gives the same rows.
    expect((await listAuditLog(books(mode), { status: "4xx" }, { now, pageSize: 500 })).rows).toHaveLength(mode === "test" ? 4 : 0);
  });

  it("is all the usage of its mode, from rollups and snapshots alike", async () => {
    const from = new Date(Math.floor(now.getTime() / DAY) * DAY - 6 * DAY);
    const to = new Date(Math.ceil((now.getTime() + 1) / 60_000) * 60_000);
    const [total] = await usageRows({ ...books(mode), from, to, bucket: null, groupBy: [] });
    expect(total!.requests).toBe(logged[mode]);
    const byKey = await usageRows({ ...books(mode), from, to, bucket: "day", groupBy: ["key"] });
    expect(new Set(byKey.map((row) => row.keyId))).toEqual(new Set([own()]));
    const window = usageWindow({ range: "7d" }, now);
    if (!window.ok) throw new Error(window.message);
    const report = await usageReport(books(mode), {}, window.window);
    expect(report.totals.requests).toBe(logged[mode]);
    const options = await getAuditFilterOptions(books(mode), now);
    expect(options.endpoints).toEqual([mode === "live" ? "GET /v1/invoices" : "POST /v1/customers"]);
  });

  it("is all the live tail shows in its mode", async () => {
    const rows = await tailRows(orgId, 0, Number.MAX_SAFE_INTEGER, { mode }, 500);
    expect(rows).toHaveLength(logged[mode]);
    expect(rows.every((row) => row.keyId === own())).toBe(true);
  });

  it("is what GET /v1/usage answers its mode's keys, each row saying its mode", async () => {
    const from = new Date(now.getTime() - 5 * DAY).toISOString().slice(0, 10);
    const response = await api.request(`/v1/usage?from=${from}&group_by=key`, { key: keys[mode].value });
    expect(response.status).toBe(200);
    const page = (await response.json()) as { data: { key_id: string; requests: number; livemode: boolean }[] };
    expect(page.data.every((row) => row.key_id === own() && row.livemode === (mode === "live"))).toBe(true);
    // This request itself may be logged by the time the rows are read: at least every earlier one.
    expect(page.data.reduce((sum, row) => sum + row.requests, 0)).toBeGreaterThanOrEqual(logged[mode]);
  });
});

it("counts this month's live calls only toward the plan", async () => {
  const month = now.toISOString().slice(0, 7);
  const callsOf = async (mode: Mode) =>
    (await listAuditLog(books(mode), { range: "30d" }, { pageSize: 500 })).rows.filter((row) => row.createdAt.startsWith(month)).length;
  expect(await callsOf("test")).toBeGreaterThan(0);
  expect(await callsThisMonth(getDb(), orgId)).toBe(await callsOf("live"));
});

itMatchesTheDocument(api, 2);
