import { describe, expect, it } from "vitest";
import type { BreakdownRowDto } from "./report";
import { BREAKDOWN_PAGE_SIZE, DEFAULT_TABLE_VIEW, pageOfRows, parseTableView, tableViewParams } from "./table-view";

const row = (id: string, requests: number, p95Ms: number | null, keyName: string | null = id): BreakdownRowDto => ({
  id,
  keyId: `key_${id}`,
  keyName,
  keyHint: null,
  keyRevoked: false,
  endpoint: null,
  requests,
  share: 0,
  rate4xx: 0,
  rate5xx: 0,
  errors4xx: 0,
  errors5xx: 0,
  p50Ms: p95Ms,
  p95Ms,
  p99Ms: p95Ms,
});

describe("a breakdown table's view in the Usage page's URL", () => {
  it("reads the table, order and page, and falls back to the default for what it cannot read", () => {
    expect(parseTableView({ table: "endpoint", sort: "p95Ms", order: "asc", page: "3" })).toEqual({ table: "endpoint", sort: "p95Ms", order: "asc", page: 3 });
    expect(parseTableView({ table: "nope", sort: "constructor", order: "up", page: "-1" })).toEqual(DEFAULT_TABLE_VIEW);
    expect(parseTableView({ page: "1.5" }).page).toBe(1);
  });

  it("writes only what differs from the default, so the page's own URL stays as it was", () => {
    expect(tableViewParams(DEFAULT_TABLE_VIEW)).toEqual([]);
    expect(tableViewParams({ table: "key-endpoint", sort: "name", order: "asc", page: 2 })).toEqual([
      ["table", "key-endpoint"],
      ["sort", "name"],
      ["order", "asc"],
      ["page", "2"],
    ]);
    expect(parseTableView(Object.fromEntries(tableViewParams({ table: "endpoint", sort: "p99Ms", order: "desc", page: 4 })))).toEqual({
      table: "endpoint",
      sort: "p99Ms",
      order: "desc",
      page: 4,
    });
  });
});

describe("a page of a breakdown's rows", () => {
  const rows = [row("b", 5, 30), row("a", 9, null), row("c", 1, 80)];

  it("orders numbers either way with rows without a latency last, names naturally", () => {
    expect(pageOfRows(rows, "p95Ms", "desc", 1).rows.map((r) => r.id)).toEqual(["c", "b", "a"]);
    expect(pageOfRows(rows, "p95Ms", "asc", 1).rows.map((r) => r.id)).toEqual(["b", "c", "a"]);
    expect(pageOfRows(rows, "requests", "desc", 1).rows.map((r) => r.id)).toEqual(["a", "b", "c"]);
    expect(pageOfRows([row("x", 1, 1, "key 10"), row("y", 1, 1, "key 9")], "name", "asc", 1).rows.map((r) => r.id)).toEqual(["y", "x"]);
  });

  it("cuts 25 rows a page, a page past the last showing the last", () => {
    const many = Array.from({ length: BREAKDOWN_PAGE_SIZE * 2 + 3 }, (_, i) => row(`r${i}`, 1000 - i, 1));
    const second = pageOfRows(many, "requests", "desc", 2);
    expect(second).toMatchObject({ page: 2, pages: 3 });
    expect(second.rows.map((r) => r.id)).toEqual(many.slice(25, 50).map((r) => r.id));
    expect(pageOfRows(many, "requests", "desc", 99)).toMatchObject({ page: 3, pages: 3, rows: many.slice(50) });
  });
});
