import { describe, expect, it } from "vitest";
import { DEFAULT_KEY_ORDER, keyListQuery, keyListView, keysInView, nextKeyOrder, type ListedKey } from "./list-view";

const NOW = Date.parse("2026-11-27T12:00:00Z");
const daysAgo = (days: number) => new Date(NOW - days * 86_400_000).toISOString();
const key = (name: string, fields: Partial<ListedKey> = {}): ListedKey => ({
  name,
  status: "active",
  createdAt: daysAgo(40),
  lastUsedAt: daysAgo(1),
  expiresAt: null,
  requestsLast30Days: 0,
  ...fields,
});

describe("the key list's view", () => {
  it("reads ?status= and ?sort=, falling back to active keys, newest first, for anything else", () => {
    expect(keyListView({})).toEqual({ status: "active", order: DEFAULT_KEY_ORDER });
    expect(keyListView({ status: "revoked", sort: "-requests" })).toEqual({ status: "revoked", order: { column: "requests", descending: true } });
    expect(keyListView({ status: "toString", sort: "constructor" })).toEqual({ status: "active", order: DEFAULT_KEY_ORDER });
    expect(keyListView({ status: ["revoked", "all"], sort: ["name"] })).toEqual({ status: "active", order: DEFAULT_KEY_ORDER });
  });

  it("writes the defaults out of the address, and the rest back in", () => {
    expect(keyListQuery({ status: "active", order: DEFAULT_KEY_ORDER })).toBe("");
    expect(keyListQuery({ status: "all", order: { column: "name", descending: false } })).toBe("?status=all&sort=name");
    expect(keyListView(Object.fromEntries(new URLSearchParams("status=expired&sort=-lastUsed")))).toEqual({
      status: "expired",
      order: { column: "lastUsed", descending: true },
    });
  });

  it("cycles a header: its first direction (text ascending, times descending), the other, then the default order", () => {
    const byName = nextKeyOrder(DEFAULT_KEY_ORDER, "name");
    expect(byName).toEqual({ column: "name", descending: false });
    expect(nextKeyOrder(byName, "name")).toEqual({ column: "name", descending: true });
    expect(nextKeyOrder({ column: "name", descending: true }, "name")).toEqual(DEFAULT_KEY_ORDER);
    expect(nextKeyOrder(byName, "lastUsed")).toEqual({ column: "lastUsed", descending: true });
  });

  it("filters by status with the page's moment, and puts missing values last in both directions", () => {
    const keys = [
      key("b never used", { lastUsedAt: null, createdAt: daysAgo(31) }),
      key("a recent", { lastUsedAt: daysAgo(1), expiresAt: daysAgo(-3) }),
      key("c revoked", { status: "revoked" }),
      key("A10 old", { lastUsedAt: daysAgo(35) }),
      key("A9 old", { lastUsedAt: daysAgo(2) }),
    ];
    const names = (status: string, sort: string) => keysInView(keys, keyListView({ status, sort }), NOW).map((k) => k.name);
    expect(names("active", "name")).toEqual(["a recent", "A9 old", "A10 old", "b never used"]);
    expect(names("unused", "name")).toEqual(["A10 old", "b never used"]);
    expect(names("expiring", "name")).toEqual(["a recent"]);
    expect(names("revoked", "name")).toEqual(["c revoked"]);
    expect(names("all", "-lastUsed")).toEqual(["a recent", "c revoked", "A9 old", "A10 old", "b never used"]);
    expect(names("active", "-lastUsed").at(-1)).toBe("b never used");
    expect(names("active", "lastUsed").at(-1)).toBe("b never used");
    expect(names("active", "expires")[0]).toBe("a recent");
  });
});
