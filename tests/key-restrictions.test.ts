import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { createApiKeyAction, revokeApiKeyAction, rollApiKeyAction, updateKeyRestrictionsAction } from "@/app/[orgSlug]/settings/api/actions";
import { getDb } from "@/db";
import { activityLog, apiKeys } from "@/db/schema";
import { describeScopes, restrictionChanges } from "@/lib/keys/access";
import { createTeam, form, insertKey } from "./helpers/factories";
import { startApiServer } from "./helpers/api-server";
import { actAs } from "./helpers/session";

const api = startApiServer();

async function keyRow(id: string) {
  const [row] = await getDb().select().from(apiKeys).where(eq(apiKeys.id, id));
  return row!;
}

async function entries(orgId: string) {
  return getDb().select().from(activityLog).where(eq(activityLog.orgId, orgId)).orderBy(activityLog.id);
}

const RESTRICTED_FORM = {
  access: "restricted",
  scope_invoices: "read",
  scope_analytics: "read",
  scope_customers: "none",
  scope_products: "none",
  scope_pdf: "none",
};

describe("creating a key with restrictions", () => {
  beforeEach(() => actAs(null));

  it("stores the access, the permissions and the allowlist, canonical, and records them in the history", async () => {
    const team = await createTeam("pro");
    actAs(team.admin.id);
    const result = await createApiKeyAction(
      null,
      form({ orgId: team.org.id, name: "Reporting job", ...RESTRICTED_FORM, ipAllowlist: "203.0.113.10\n2001:DB8::/32, 203.0.113.10" }),
    );
    if (!result.ok) throw new Error(result.error);
    expect(result.data.key).toMatchObject({
      access: "restricted",
      scopes: { invoices: "read", analytics: "read" },
      ipAllowlist: ["203.0.113.10", "2001:db8::/32"],
    });
    const [entry] = await entries(team.org.id);
    expect(entry!.after).toMatchObject({ access: "restricted", scopes: "invoices: read, analytics: read", ipAllowlist: "203.0.113.10, 2001:db8::/32" });
  });

  it("ignores the grid unless the key is restricted, and makes full access without an allowlist the default", async () => {
    const team = await createTeam("pro");
    actAs(team.owner.id);
    const readOnly = await createApiKeyAction(null, form({ orgId: team.org.id, name: "Dashboard mirror", ...RESTRICTED_FORM, access: "read_only" }));
    expect(readOnly.ok && readOnly.data.key).toMatchObject({ access: "read_only", scopes: {}, ipAllowlist: [] });
    const plain = await createApiKeyAction(null, form({ orgId: team.org.id, name: "Billing server" }));
    expect(plain.ok && plain.data.key).toMatchObject({ access: "full", scopes: {}, ipAllowlist: [] });
  });

  it.each([
    [{ ipAllowlist: "203.0.113.10/24" }, "ipAllowlist", "did you mean 203.0.113.0/24?"],
    [{ ipAllowlist: "office" }, "ipAllowlist", "is not an IP address or range"],
    [{ ipAllowlist: Array.from({ length: 21 }, (_, i) => `10.0.0.${i}`).join("\n") }, "ipAllowlist", "Use at most 20 addresses or ranges"],
    [{ access: "restricted" }, "access", "Give a restricted key at least one permission"],
    [{ access: "everything" }, "access", "Choose full access, read only or restricted."],
    [{ access: "restricted", scope_invoices: "admin" }, "scope_invoices", "Choose none or read or write for invoices."],
    [{ access: "restricted", scope_analytics: "write" }, "scope_analytics", "Choose none or read for analytics."],
  ])("refuses %o with a message on %s and creates nothing", async (fields, field, message) => {
    const team = await createTeam("pro");
    actAs(team.owner.id);
    const result = await createApiKeyAction(null, form({ orgId: team.org.id, name: "Reporting job", ...fields }));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.fieldErrors?.[field]?.join(" ")).toContain(message);
    expect(await getDb().select().from(apiKeys).where(eq(apiKeys.orgId, team.org.id))).toEqual([]);
  });
});

describe("changing a key's restrictions", () => {
  beforeEach(() => actAs(null));

  it("applies to the very next request and records only what changed", async () => {
    const team = await createTeam("pro");
    const key = await insertKey(team.org.id, { name: "Zapier" });
    const post = () => api.request("/v1/customers", { method: "POST", key: key.value, json: { name: "Ada Lovelace", email: "ada@example.com" } });
    expect((await post()).status).toBe(201);
    actAs(team.admin.id);
    const result = await updateKeyRestrictionsAction(null, form({ orgId: team.org.id, keyId: key.id, access: "read_only", ipAllowlist: "" }));
    expect(result.ok).toBe(true);
    expect((await post()).status).toBe(403);
    expect((await api.request("/v1/customers", { key: key.value })).status).toBe(200);
    const [entry] = await entries(team.org.id);
    expect(entry).toMatchObject({ action: "api_key.restrictions_changed", targetName: "Zapier", before: { access: "full" }, after: { access: "read_only" } });

    const allowlisted = await updateKeyRestrictionsAction(null, form({ orgId: team.org.id, keyId: key.id, access: "read_only", ipAllowlist: "203.0.113.10" }));
    expect(allowlisted.ok).toBe(true);
    expect((await api.request("/v1/customers", { key: key.value })).status).toBe(403);
    expect((await entries(team.org.id))[1]).toMatchObject({ before: { ipAllowlist: null }, after: { ipAllowlist: "203.0.113.10" } });
  });

  it("refuses a change that changes nothing, and a revoked key's, writing no entry", async () => {
    const team = await createTeam("pro");
    const key = await insertKey(team.org.id, { name: "Zapier", access: "read_only" });
    actAs(team.owner.id);
    const same = await updateKeyRestrictionsAction(null, form({ orgId: team.org.id, keyId: key.id, access: "read_only" }));
    expect(same).toMatchObject({ ok: false, error: '"Zapier" already has this access and budget.' });
    expect((await revokeApiKeyAction(null, form({ orgId: team.org.id, keyId: key.id }))).ok).toBe(true);
    const revoked = await updateKeyRestrictionsAction(null, form({ orgId: team.org.id, keyId: key.id, access: "full" }));
    expect(revoked).toMatchObject({ ok: false, error: '"Zapier" is revoked: its access can no longer change.' });
    expect((await keyRow(key.id)).access).toBe("read_only");
    expect((await entries(team.org.id)).map((entry) => entry.action)).toEqual(["api_key.revoked"]);
  });

  it("cannot reach another organization's key", async () => {
    const team = await createTeam("pro");
    const other = await createTeam("pro");
    const theirs = await insertKey(other.org.id, { name: "Theirs" });
    actAs(team.owner.id);
    const result = await updateKeyRestrictionsAction(null, form({ orgId: team.org.id, keyId: theirs.id, access: "read_only" }));
    expect(result).toMatchObject({ ok: false, error: "API key not found in this organization." });
    expect((await keyRow(theirs.id)).access).toBe("full");
  });

  it("is kept by a roll: the replacement can do what the old key could, from where it could", async () => {
    const team = await createTeam("pro");
    const key = await insertKey(team.org.id, { name: "Reporting", access: "restricted", scopes: { analytics: "read" }, ipAllowlist: ["127.0.0.1"] });
    actAs(team.owner.id);
    const rolled = await rollApiKeyAction(null, form({ orgId: team.org.id, keyId: key.id, overlap: "now" }));
    if (!rolled.ok) throw new Error(rolled.error);
    expect(rolled.data.key).toMatchObject({ access: "restricted", scopes: { analytics: "read" }, ipAllowlist: ["127.0.0.1"] });
    expect((await api.request("/v1/analytics", { key: rolled.data.value })).status).toBe(200);
    expect((await api.request("/v1/invoices", { key: rolled.data.value })).status).toBe(403);
  });
});

describe("what the dashboard says a key can do", () => {
  it("lists every resource with the permissions held", () => {
    expect(describeScopes("full", {}).map((line) => line.can)).toEqual(["Read and Write", "Read and Write", "Read and Write", "Read", "Generate", "Read"]);
    expect(describeScopes("read_only", {}).map((line) => line.can)).toEqual(["Read", "Read", "Read", "Read", "No access", "Read"]);
    expect(describeScopes("restricted", { invoices: "write", pdf: "generate" }).map((line) => line.can)).toEqual([
      "Read and Write",
      "No access",
      "No access",
      "No access",
      "Generate",
      "No access",
    ]);
  });

  it("records only the fields that differ", () => {
    const full = { access: "full" as const, scopes: {}, ipAllowlist: [] };
    expect(restrictionChanges(full, { ...full, ipAllowlist: ["10.0.0.0/8"] })).toEqual({ before: { ipAllowlist: null }, after: { ipAllowlist: "10.0.0.0/8" } });
    expect(restrictionChanges(full, full)).toEqual({ before: {}, after: {} });
    expect(restrictionChanges(null, full).after).toEqual({ access: "full", scopes: null, ipAllowlist: null });
  });
});
