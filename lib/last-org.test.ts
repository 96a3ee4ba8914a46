import { describe, expect, it } from "vitest";
import { orgSettingsPath } from "./last-org";

describe("where an organization-less link lands", () => {
  it("keeps the link's filters on the organization's page", () => {
    expect(orgSettingsPath("acme", ["api", "audit"], { key: "key_demo_acme_legacy", status: "4xx" })).toBe(
      "/acme/settings/api/audit?key=key_demo_acme_legacy&status=4xx",
    );
    expect(orgSettingsPath("acme", ["api", "usage"], { range: "7d", endpoint: ["GET /v1/invoices", "POST /v1/invoices"] })).toBe(
      "/acme/settings/api/usage?range=7d&endpoint=GET+%2Fv1%2Finvoices&endpoint=POST+%2Fv1%2Finvoices",
    );
    expect(orgSettingsPath("acme", [], {})).toBe("/acme/settings/api");
    expect(orgSettingsPath("acme", ["members"])).toBe("/acme/settings/members");
  });

  it("carries only search params: nothing in the query or the path's segments leaves the site or changes the path", () => {
    const target = orgSettingsPath("acme", ["api", "/evil.example", "a?b#c"], { "x&y": "1#2", next: "//evil.example/?q=1" });
    expect(target).toBe("/acme/settings/api/%2Fevil.example/a%3Fb%23c?x%26y=1%232&next=%2F%2Fevil.example%2F%3Fq%3D1");
    const url = new URL(target, "http://app.test");
    expect(url.host).toBe("app.test");
    expect(url.pathname).toBe("/acme/settings/api/%2Fevil.example/a%3Fb%23c");
    expect([...url.searchParams]).toEqual([
      ["x&y", "1#2"],
      ["next", "//evil.example/?q=1"],
    ]);
    expect(url.hash).toBe("");
  });
});
