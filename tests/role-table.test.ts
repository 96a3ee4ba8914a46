import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import {
  createApiKeyAction,
  renameApiKeyAction,
  revokeApiKeyAction,
  rollApiKeyAction,
  updateKeyRestrictionsAction,
  deleteTestDataAction,
} from "@/app/[orgSlug]/settings/api/actions";
import { countTestData } from "@/db/queries/test-data";
import { createCustomer } from "@/lib/api/services/customers";
import { exportActivityCsv } from "@/app/[orgSlug]/settings/api/activity/export/export-activity-csv";
import { loadActivity } from "@/app/[orgSlug]/settings/api/activity/load-activity";
import { exportAuditCsv } from "@/app/[orgSlug]/settings/api/audit/export/export-audit-csv";
import { loadAuditLog } from "@/app/[orgSlug]/settings/api/audit/load-audit-log";
import { loadRequest } from "@/app/[orgSlug]/settings/api/audit/[requestId]/load-request";
import { exportUsageCsv } from "@/app/[orgSlug]/settings/api/usage/export/export-usage-csv";
import { loadUsage } from "@/app/[orgSlug]/settings/api/usage/load-usage";
import { findKey } from "@/app/[orgSlug]/settings/api/keys/[keyId]/find-key";
import { createSlackChannelAction, markAlertsReadAction, setAlertSettingsAction } from "@/app/[orgSlug]/settings/alerts/actions";
import { setEmailPreferencesAction } from "@/app/[orgSlug]/settings/notifications/actions";
import { getEmailPreferences } from "@/db/queries/notifications";
import { setKeyPolicyAction, setLeakedKeyResponseAction } from "@/app/[orgSlug]/settings/api/policy/actions";
import { createWebhookEndpointAction } from "@/app/[orgSlug]/settings/webhooks/actions";
import { createLogStreamAction } from "@/app/[orgSlug]/settings/log-streams/actions";
import { listLogStreams } from "@/db/queries/log-stream-settings";
import { addSsoDomainAction } from "@/app/[orgSlug]/settings/sso/actions";
import { listSsoDomains } from "@/db/queries/sso-settings";
import {
  changeMemberRoleAction,
  inviteMemberAction,
  removeMemberAction,
  revokeInvitationAction,
  setTwoFactorRequirementAction,
} from "@/app/[orgSlug]/settings/members/actions";
import { listMembers } from "@/db/queries/members";
import { changePlanAction, setRateLimitAction } from "@/app/[orgSlug]/settings/plan/actions";
import { getDb } from "@/db";
import { raiseQuotaAlerts } from "@/lib/alerts/raise";
import { countUnreadAlerts } from "@/db/queries/alerts";
import { getKeyUsage } from "@/db/queries/key-usage";
import { listWebhookEndpoints } from "@/db/queries/webhooks";
import { utcMonthStart } from "@/core/time";
import { apiKeys, organizations } from "@/db/schema";
import type { Role } from "@/core/enums";
import { requireOrgAccess } from "@/lib/org-access";
import { addMember, createOrg, createTeam, form, giveSecondFactor, insertKey } from "./helpers/factories";
import { logRequest } from "./helpers/request-log";
import { actAs, readAs } from "./helpers/session";

/**
 * The role table (docs/features/members.md#what-each-role-may-do), cell by cell, each called as that role straight at the server entry point the
 * dashboard uses (server actions, page loaders, the export route's handler), never through the UI.
 */
const ROLES: Role[] = ["owner", "admin", "member", "guest"];
const allowed = (cells: boolean[]) => ROLES.map((role, i) => [role, cells[i]!] as const);

let team: Awaited<ReturnType<typeof createTeam>>;
let key: { id: string; value: string };

beforeEach(async () => {
  team = await createTeam("enterprise");
  key = await insertKey(team.org.id, { name: "Production billing server" });
  await logRequest({ orgId: team.org.id, apiKeyId: key.id, at: new Date() });
  actAs(null);
});

/** What Next's notFound() throws, so a page renders its 404. */
const NOT_FOUND = expect.objectContaining({ digest: expect.stringMatching(/404|NOT_FOUND/) });

describe("view API keys list and a key's details and 30-day stats", () => {
  it.each(allowed([true, true, true, true]))("%s: %s", async (role) => {
    actAs(team.byRole[role].id);
    const { membership } = await requireOrgAccess(team.org.slug, "keys.view");
    expect(membership.role).toBe(role);
    const { apiKey } = await findKey(team.org.slug, key.id);
    expect(apiKey).toMatchObject({ id: key.id, name: "Production billing server", requestsLast30Days: 1 });
    expect((await getKeyUsage(membership.orgId, apiKey.id)).total).toBe(1);
  });

  it("is a 404 for a user of another organization, and for another organization's key", async () => {
    const outsider = await createTeam("pro");
    actAs(outsider.owner.id);
    await expect(requireOrgAccess(team.org.slug, "keys.view")).rejects.toEqual(NOT_FOUND);
    await expect(findKey(team.org.slug, key.id)).rejects.toEqual(NOT_FOUND);
    await expect(findKey(outsider.org.slug, key.id)).rejects.toEqual(NOT_FOUND);
  });
});

describe("view the organization audit log, export it as CSV", () => {
  it.each(allowed([true, true, true, false]))("%s: %s", async (role, may) => {
    const userId = team.byRole[role].id;
    const view = await readAs(userId, () => loadAuditLog(team.org.slug, {}));
    const csv = await readAs(userId, () => exportAuditCsv(team.org.slug, new URLSearchParams()));
    if (may) {
      expect(view).toMatchObject({ kind: "ok", page: { rows: [expect.objectContaining({ keyId: key.id })] } });
      expect(csv.status).toBe(200);
      expect((await csv.text()).trim().split("\n")).toHaveLength(2);
    } else {
      expect(view).toEqual({ kind: "refused", status: 403, message: "Guests cannot view or export the audit log." });
      expect(csv.status).toBe(403);
      expect(await csv.text()).not.toContain(key.id);
    }
  });
});

describe("view the organization's API usage, export a breakdown as CSV", () => {
  it.each(allowed([true, true, true, false]))("%s: %s", async (role, may) => {
    const userId = team.byRole[role].id;
    const view = await readAs(userId, async () => {
      const loaded = await loadUsage(team.org.slug, { range: "30d" });
      return loaded.kind === "ok" ? { ...loaded, report: await loaded.report } : loaded;
    });
    const csv = await readAs(userId, () => exportUsageCsv(team.org.slug, new URLSearchParams({ range: "30d" })));
    if (may) {
      expect(view).toMatchObject({ kind: "ok", report: { breakdowns: { key: [expect.objectContaining({ keyId: key.id })] } } });
      expect(csv.status).toBe(200);
      expect(await csv.text()).toContain(key.id);
    } else {
      expect(view).toEqual({ kind: "refused", status: 403, message: "Guests cannot view or export the organization's API usage." });
      expect(csv.status).toBe(403);
      expect(await csv.text()).not.toContain(key.id);
    }
  });
});

describe("view the live tail and request details (§14)", () => {
  it.each(allowed([true, true, true, false]))("%s: %s", async (role, may) => {
    const userId = team.byRole[role].id;
    const [row] = (await readAs(team.owner.id, () => loadAuditLog(team.org.slug, {})).then((view) => (view.kind === "ok" ? view.page.rows : []))) ?? [];
    const details = await readAs(userId, () => loadRequest(team.org.slug, row!.requestId));
    if (may) expect(details).toMatchObject({ kind: "ok", request: { requestId: row!.requestId, keyId: key.id } });
    else expect(details).toEqual({ kind: "refused", status: 403, message: "Guests cannot watch the live tail or open a request's details." });
  });
});

describe("view the activity history (who changed what), export it as CSV", () => {
  it.each(allowed([true, true, true, false]))("%s: %s", async (role, may) => {
    actAs(team.owner.id);
    const created = await createApiKeyAction(null, form({ orgId: team.org.id, name: "Reporting job" }));
    expect(created.ok).toBe(true);
    const userId = team.byRole[role].id;
    const view = await readAs(userId, () => loadActivity(team.org.slug, {}));
    const csv = await readAs(userId, () => exportActivityCsv(team.org.slug, new URLSearchParams()));
    if (may) {
      expect(view).toMatchObject({ kind: "ok", page: { rows: [expect.objectContaining({ action: "api_key.created", targetName: "Reporting job" })] } });
      expect(csv.status).toBe(200);
      expect(await csv.text()).toContain("Reporting job");
    } else {
      expect(view).toEqual({ kind: "refused", status: 403, message: "Guests cannot view or export the activity history." });
      expect(csv.status).toBe(403);
      expect(await csv.text()).not.toContain("Reporting job");
    }
  });
});

describe("create an API key", () => {
  it.each(allowed([true, true, false, false]))("%s: %s", async (role, may) => {
    actAs(team.byRole[role].id);
    const result = await createApiKeyAction(null, form({ orgId: team.org.id, name: "Staging" }));
    expect(result.ok).toBe(may);
    if (!result.ok) expect(result.error).toBe("Only owners and admins can create API keys.");
    expect(await getDb().select().from(apiKeys).where(eq(apiKeys.orgId, team.org.id))).toHaveLength(may ? 2 : 1);
  });
});

describe("revoke an API key", () => {
  it.each(allowed([true, false, false, false]))("%s: %s", async (role, may) => {
    actAs(team.byRole[role].id);
    const result = await revokeApiKeyAction(null, form({ orgId: team.org.id, keyId: key.id }));
    expect(result.ok).toBe(may);
    if (!result.ok) expect(result.error).toBe("Only owners can revoke API keys.");
    const [row] = await getDb().select().from(apiKeys).where(eq(apiKeys.id, key.id));
    expect(row!.revokedAt !== null).toBe(may);
  });
});

describe("rename a key", () => {
  it.each(allowed([true, true, false, false]))("%s: %s", async (role, may) => {
    actAs(team.byRole[role].id);
    const result = await renameApiKeyAction(null, form({ orgId: team.org.id, keyId: key.id, name: "Billing (EU)" }));
    expect(result.ok).toBe(may);
    if (!result.ok) expect(result.error).toBe("Only owners and admins can rename API keys.");
    const [row] = await getDb().select().from(apiKeys).where(eq(apiKeys.id, key.id));
    expect(row!.name).toBe(may ? "Billing (EU)" : "Production billing server");
  });
});

describe("change a key's restrictions (scopes, IP allowlist)", () => {
  it.each(allowed([true, true, false, false]))("%s: %s", async (role, may) => {
    actAs(team.byRole[role].id);
    const result = await updateKeyRestrictionsAction(
      null,
      form({ orgId: team.org.id, keyId: key.id, access: "restricted", scope_analytics: "read", ipAllowlist: "203.0.113.0/24" }),
    );
    expect(result.ok).toBe(may);
    if (!result.ok) expect(result.error).toBe("Only owners and admins can change what an API key may do.");
    const [row] = await getDb().select().from(apiKeys).where(eq(apiKeys.id, key.id));
    expect(row).toMatchObject(
      may ? { access: "restricted", scopes: { analytics: "read" }, ipAllowlist: ["203.0.113.0/24"] } : { access: "full", scopes: {}, ipAllowlist: [] },
    );
  });
});

describe("set a key's budget (§15)", () => {
  it.each(allowed([true, true, false, false]))("%s: %s", async (role, may) => {
    actAs(team.byRole[role].id);
    const edited = await updateKeyRestrictionsAction(null, form({ orgId: team.org.id, keyId: key.id, access: "full", budgetLimit: "3", budgetPeriod: "day" }));
    const created = await createApiKeyAction(null, form({ orgId: team.org.id, name: "Budgeted", budgetLimit: "10", budgetPeriod: "month" }));
    for (const result of [edited, created]) {
      expect(result.ok).toBe(may);
      if (!result.ok) expect(result.error).toMatch(/^Only owners and admins can /);
    }
    const rows = await getDb().select().from(apiKeys).where(eq(apiKeys.orgId, team.org.id));
    expect(rows.find((row) => row.id === key.id)).toMatchObject(may ? { budgetLimit: 3, budgetPeriod: "day" } : { budgetLimit: null, budgetPeriod: null });
    expect(rows.filter((row) => row.budgetLimit === 10)).toHaveLength(may ? 1 : 0);
  });
});

describe("roll a key (a new value now, the old one ends after an overlap)", () => {
  it.each(allowed([true, false, false, false]))("%s: %s", async (role, may) => {
    actAs(team.byRole[role].id);
    const result = await rollApiKeyAction(null, form({ orgId: team.org.id, keyId: key.id, overlap: "1h" }));
    expect(result.ok).toBe(may);
    if (!result.ok) expect(result.error).toBe("Only owners can roll API keys.");
    const rows = await getDb().select().from(apiKeys).where(eq(apiKeys.orgId, team.org.id));
    expect(rows).toHaveLength(may ? 2 : 1);
    expect(rows.find((row) => row.id === key.id)!.expiresAt !== null).toBe(may);
  });
});

describe("set the organization's key policy (maximum lifetime, expiry required)", () => {
  it.each(allowed([true, false, false, false]))("%s: %s", async (role, may) => {
    actAs(team.byRole[role].id);
    const result = await setKeyPolicyAction(null, form({ orgId: team.org.id, maxLifetimeDays: "90" }));
    expect(result.ok).toBe(may);
    if (!result.ok) expect(result.error).toBe("Only owners can set the key policy.");
    const [row] = await getDb().select().from(organizations).where(eq(organizations.id, team.org.id));
    expect({ maxLifetimeDays: row!.keyMaxLifetimeDays, expiryRequired: row!.keyExpiryRequired }).toEqual(
      may ? { maxLifetimeDays: 90, expiryRequired: true } : { maxLifetimeDays: null, expiryRequired: false },
    );
  });
});

describe("see alerts (the notification bell)", () => {
  it.each(allowed([true, true, true, false]))("%s: %s", async (role, may) => {
    await raiseQuotaAlerts(getDb(), { orgId: team.org.id, month: utcMonthStart(new Date()), quota: 10_000, thresholds: [80], at: new Date() });
    const userId = team.byRole[role].id;
    const page = await readAs(userId, () => requireOrgAccess(team.org.slug, "alerts.view")).then(
      (access) => ({ shown: access }),
      (error: unknown) => ({ refused: error }),
    );
    actAs(userId);
    const marked = await markAlertsReadAction(null, { orgId: team.org.id, alertId: "all" });
    // Choosing which of them come by email (docs/features/notifications.md#email) goes with seeing them.
    const emailed = await setEmailPreferencesAction(null, { orgId: team.org.id, budget_threshold: "on" });
    if (may) {
      expect(page).toMatchObject({ shown: { membership: { role } } });
      expect(marked).toEqual({ ok: true, data: { matched: 1 } });
      expect(await countUnreadAlerts(team.org.id, userId)).toBe(0);
      expect(emailed).toMatchObject({ ok: true, data: { budget_threshold: true } });
    } else {
      expect(page).toEqual({ refused: NOT_FOUND });
      expect(marked).toEqual({ ok: false, error: "Guests cannot see the organization's alerts." });
      expect(await countUnreadAlerts(team.org.id, userId)).toBe(1);
      expect(emailed).toEqual({ ok: false, error: "Guests cannot see the organization's alerts." });
    }
    expect((await getEmailPreferences(team.org.id, userId)).budget_threshold).toBe(may);
  });
});

describe("manage webhook endpoints and alert settings", () => {
  it.each(allowed([true, true, false, false]))("%s: %s", async (role, may) => {
    actAs(team.byRole[role].id);
    const result = await setAlertSettingsAction(null, form({ orgId: team.org.id, quotaAlertThresholds: "50, 100", rateLimitAlertThreshold: "20" }));
    expect(result.ok).toBe(may);
    if (!result.ok) expect(result.error).toBe("Only owners and admins can change alert settings and webhooks.");
    const [row] = await getDb().select().from(organizations).where(eq(organizations.id, team.org.id));
    expect(row!.quotaAlertThresholds).toEqual(may ? [50, 100] : [80, 90, 100]);

    process.env.WEBHOOK_ALLOW_PRIVATE = "true";
    const added = await createWebhookEndpointAction(null, form({ orgId: team.org.id, url: "http://127.0.0.1:9/hooks", eventTypes: "key.created" }));
    const slack = await createSlackChannelAction(null, form({ orgId: team.org.id, url: "http://127.0.0.1:9/services/T/B/x" }));
    delete process.env.WEBHOOK_ALLOW_PRIVATE;
    expect(added.ok).toBe(may);
    expect(slack.ok).toBe(may);
    expect(await listWebhookEndpoints(team.org.id)).toHaveLength(may ? 1 : 0);
    expect(await listWebhookEndpoints(team.org.id, undefined, "slack")).toHaveLength(may ? 1 : 0);
    const page = await readAs(team.byRole[role].id, () => requireOrgAccess(team.org.slug, "notifications.manage")).then(
      () => "shown",
      (error: unknown) => error,
    );
    expect(page).toEqual(may ? "shown" : NOT_FOUND);
  });
});

describe("see and change the log streams (§21)", () => {
  it.each(allowed([true, true, false, false]))("%s: %s", async (role, may) => {
    actAs(team.byRole[role].id);
    process.env.WEBHOOK_ALLOW_PRIVATE = "true";
    const added = await createLogStreamAction(
      null,
      form({ orgId: team.org.id, name: "SIEM", kind: "splunk", url: "http://127.0.0.1:9", token: "hec-token-0001", sources: "activity" }),
    );
    delete process.env.WEBHOOK_ALLOW_PRIVATE;
    expect(added.ok).toBe(may);
    if (!added.ok) expect(added.error).toBe("Only owners and admins can see and change the log streams.");
    expect(await listLogStreams(getDb(), team.org.id)).toHaveLength(may ? 1 : 0);
    const page = await readAs(team.byRole[role].id, () => requireOrgAccess(team.org.slug, "log_streams.manage")).then(
      () => "shown",
      (error: unknown) => error,
    );
    expect(page).toEqual(may ? "shown" : NOT_FOUND);
  });
});

describe("see the organization's members and pending invitations", () => {
  it.each(allowed([true, true, true, false]))("%s: %s", async (role, may) => {
    const page = await readAs(team.byRole[role].id, () => requireOrgAccess(team.org.slug, "members.view")).then(
      () => "shown",
      (error: unknown) => error,
    );
    expect(page).toEqual(may ? "shown" : NOT_FOUND);
  });
});

/** One change of each kind the Members page makes, on a person (or an invitation) with `targetRole`, as `role`. */
async function manageMembers(role: Role, targetRole: Role) {
  const target = await addMember(team.org.id, targetRole, `Target ${targetRole}`);
  actAs(team.owner.id);
  const pending = await inviteMemberAction(null, form({ orgId: team.org.id, email: `pending-${targetRole}@example.com`, role: targetRole }));
  if (!pending.ok) throw new Error(pending.error);
  actAs(team.byRole[role].id);
  const lower: Role = targetRole === "owner" ? "admin" : targetRole === "admin" ? "member" : targetRole === "member" ? "guest" : "member";
  return {
    target,
    invited: await inviteMemberAction(null, form({ orgId: team.org.id, email: `new-${targetRole}@example.com`, role: targetRole })),
    reRoled: await changeMemberRoleAction(null, form({ orgId: team.org.id, userId: target.id, role: lower })),
    revoked: await revokeInvitationAction(null, form({ orgId: team.org.id, invitationId: pending.data.id })),
    removed: await removeMemberAction(null, form({ orgId: team.org.id, userId: target.id })),
  };
}

describe("invite, re-role or remove members and guests; revoke invitations", () => {
  it.each(allowed([true, true, false, false]).flatMap(([role, may]) => (["member", "guest"] as const).map((target) => [role, target, may] as const)))(
    "%s on a %s: %s",
    async (role, targetRole, may) => {
      const { target, ...results } = await manageMembers(role, targetRole);
      for (const [name, result] of Object.entries(results)) {
        expect(result.ok, name).toBe(may);
        if (!result.ok) expect(result.error, name).toBe("Only owners and admins can invite, re-role or remove members.");
      }
      expect((await listMembers(team.org.id)).some((member) => member.userId === target.id)).toBe(!may);
    },
  );
});

describe("invite, re-role or remove admins and owners", () => {
  it.each(allowed([true, false, false, false]).flatMap(([role, may]) => (["admin", "owner"] as const).map((target) => [role, target, may] as const)))(
    "%s on an %s: %s",
    async (role, targetRole, may) => {
      const { target, ...results } = await manageMembers(role, targetRole);
      for (const [name, result] of Object.entries(results)) {
        expect(result.ok, name).toBe(may);
        if (!result.ok) expect(result.error, name).toMatch(/^Only owners (and admins )?can invite, re-role or remove/);
      }
      expect((await listMembers(team.org.id)).some((member) => member.userId === target.id)).toBe(!may);
    },
  );
});

describe("set the organization's two-factor requirement (§16)", () => {
  it.each(allowed([true, false, false, false]))("%s: %s", async (role, may) => {
    // Everyone has two-factor, so only the role decides.
    for (const person of Object.values(team.byRole)) await giveSecondFactor(person.id);
    actAs(team.byRole[role].id);
    const result = await setTwoFactorRequirementAction(null, form({ orgId: team.org.id, required: "on" }));
    expect(result.ok).toBe(may);
    if (!result.ok) expect(result.error).toBe("Only owners can change the organization's security requirements.");
    const [org] = await getDb().select().from(organizations).where(eq(organizations.id, team.org.id));
    expect(org!.requireTwoFactor).toBe(may);
  });

  it("is refused to an owner without two-factor, who would lock themselves out, and changes nothing", async () => {
    actAs(team.owner.id);
    const result = await setTwoFactorRequirementAction(null, form({ orgId: team.org.id, required: "on" }));
    expect(result).toEqual({ ok: false, error: expect.stringMatching(/^Set up two-factor authentication for your own account first/) });
    const [org] = await getDb().select().from(organizations).where(eq(organizations.id, team.org.id));
    expect(org!.requireTwoFactor).toBe(false);
  });
});

describe("set the organization's leaked-key response (§17)", () => {
  it.each(allowed([true, false, false, false]))("%s: %s", async (role, may) => {
    actAs(team.byRole[role].id);
    const result = await setLeakedKeyResponseAction(null, form({ orgId: team.org.id, response: "alert" }));
    expect(result.ok).toBe(may);
    if (!result.ok) expect(result.error).toBe("Only owners can change the organization's security requirements.");
    const [org] = await getDb().select().from(organizations).where(eq(organizations.id, team.org.id));
    expect(org!.leakedKeyResponse).toBe(may ? "alert" : "revoke");
    if (may) await getDb().update(organizations).set({ leakedKeyResponse: "revoke" }).where(eq(organizations.id, team.org.id));
  });
});

describe("set up single sign-on: the identity provider and the email domains", () => {
  it.each(allowed([true, false, false, false]))("%s: %s", async (role, may) => {
    actAs(team.byRole[role].id);
    const added = await addSsoDomainAction(null, form({ orgId: team.org.id, domain: `${role}.${team.org.slug}.example` }));
    expect(added.ok).toBe(may);
    if (!added.ok) expect(added.error).toBe("Only owners can set up single sign-on.");
    expect(await listSsoDomains(getDb(), team.org.id)).toHaveLength(may ? 1 : 0);
    const page = await readAs(team.byRole[role].id, () => requireOrgAccess(team.org.slug, "sso.manage")).then(
      () => "shown",
      (error: unknown) => error,
    );
    expect(page).toEqual(may ? "shown" : NOT_FOUND);
  });
});

describe("delete all test data (§19)", () => {
  it.each(allowed([true, false, false, false]))("%s: %s", async (role, may) => {
    const test = { orgId: team.org.id, mode: "test" as const };
    await createCustomer(test, { name: "CI customer" });
    actAs(team.byRole[role].id);
    const result = await deleteTestDataAction(null, form({ orgId: team.org.id }));
    expect(result.ok).toBe(may);
    if (!result.ok) expect(result.error).toBe("Only owners can delete the organization's test data.");
    expect((await countTestData(getDb(), team.org.id)).customers).toBe(may ? 0 : 1);
  });
});

describe("change the organization's plan and Enterprise rate limit", () => {
  it.each(allowed([true, false, false, false]))("%s: %s", async (role, may) => {
    actAs(team.byRole[role].id);
    const limit = await setRateLimitAction(null, form({ orgId: team.org.id, rateLimitPerMinute: 500 }));
    const plan = await changePlanAction(null, form({ orgId: team.org.id, plan: "pro" }));
    for (const result of [limit, plan]) {
      expect(result.ok).toBe(may);
      if (!result.ok) expect(result.error).toBe("Only owners can change the plan and rate limit.");
    }
    const [org] = await getDb().select().from(organizations).where(eq(organizations.id, team.org.id));
    expect(org).toMatchObject(may ? { plan: "pro", rateLimitPerMinute: 500 } : { plan: "enterprise", rateLimitPerMinute: null });
  });

  it("is refused for an owner of another organization, which stays as it was", async () => {
    const other = await createOrg("trial");
    actAs(team.owner.id);
    expect(await changePlanAction(null, form({ orgId: other.id, plan: "enterprise" }))).toEqual({ ok: false, error: "Organization not found." });
    const [org] = await getDb().select().from(organizations).where(eq(organizations.id, other.id));
    expect(org!.plan).toBe("trial");
  });
});
