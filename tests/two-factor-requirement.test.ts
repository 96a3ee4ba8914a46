import { and, eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { createApiKeyAction } from "@/app/[orgSlug]/settings/api/actions";
import { exportAuditCsv } from "@/app/[orgSlug]/settings/api/audit/export/export-audit-csv";
import { setTwoFactorRequirementAction } from "@/app/[orgSlug]/settings/members/actions";
import { getDb } from "@/db";
import { listMembers } from "@/db/queries/members";
import { activityLog } from "@/db/schema";
import { orgAccess, requireOrgAccess } from "@/lib/org-access";
import { createTeam, form, giveSecondFactor } from "./helpers/factories";
import { actAs, readAs } from "./helpers/session";

// "Require two-factor for everyone", enforced on the server on every request into the
// organization: pages (requireOrgAccess), routes (orgAccess) and actions (orgAction).

let team: Awaited<ReturnType<typeof createTeam>>;

beforeEach(async () => {
  team = await createTeam("pro");
  await giveSecondFactor(team.owner.id);
  actAs(team.owner.id);
  const result = await setTwoFactorRequirementAction(null, form({ orgId: team.org.id, required: "on" }));
  expect(result).toEqual({ ok: true, data: { required: true } });
});

const SETUP_REDIRECT = (slug: string) => expect.objectContaining({ digest: expect.stringContaining(`/settings/security?required=${slug}`) });

describe("an organization that requires two-factor", () => {
  it("takes a member without it to set it up, from every page, and refuses their actions and routes", async () => {
    await expect(readAs(team.member.id, () => requireOrgAccess(team.org.slug))).rejects.toEqual(SETUP_REDIRECT(team.org.slug));
    await expect(readAs(team.admin.id, () => requireOrgAccess(team.org.slug, "keys.view"))).rejects.toEqual(SETUP_REDIRECT(team.org.slug));
    expect(await readAs(team.member.id, () => orgAccess(team.org.slug))).toMatchObject({
      ok: false,
      status: 403,
      message: `${team.org.name} requires two-factor authentication. Set it up under Security to continue.`,
    });

    actAs(team.admin.id);
    expect(await createApiKeyAction(null, form({ orgId: team.org.id, name: "Blocked" }))).toEqual({
      ok: false,
      error: `${team.org.name} requires two-factor authentication. Set it up under Security to continue.`,
    });
    const csv = await readAs(team.member.id, () => exportAuditCsv(team.org.slug, new URLSearchParams()));
    expect(csv.status).toBe(403);
  });

  it("lets a member in once they have two-factor, and everyone again once it is no longer required", async () => {
    await giveSecondFactor(team.admin.id);
    await expect(readAs(team.admin.id, () => requireOrgAccess(team.org.slug))).resolves.toMatchObject({ membership: { role: "admin", needsTwoFactor: false } });
    actAs(team.admin.id);
    expect((await createApiKeyAction(null, form({ orgId: team.org.id, name: "Allowed" }))).ok).toBe(true);

    actAs(team.owner.id);
    expect(await setTwoFactorRequirementAction(null, form({ orgId: team.org.id, required: "off" }))).toEqual({ ok: true, data: { required: false } });
    await expect(readAs(team.member.id, () => requireOrgAccess(team.org.slug))).resolves.toMatchObject({ membership: { role: "member" } });
  });

  it("shows who has two-factor on the Members page, and records each change in the history", async () => {
    const members = await listMembers(team.org.id);
    expect(Object.fromEntries(members.map((m) => [m.role, m.hasTwoFactor]))).toEqual({ owner: true, admin: false, member: false, guest: false });
    actAs(team.owner.id);
    await setTwoFactorRequirementAction(null, form({ orgId: team.org.id, required: "off" }));
    const entries = await getDb()
      .select()
      .from(activityLog)
      .where(and(eq(activityLog.orgId, team.org.id), eq(activityLog.action, "two_factor.requirement_changed")))
      .orderBy(activityLog.id);
    expect(entries.map((e) => [e.before, e.after])).toEqual([
      [{ required: false }, { required: true }],
      [{ required: true }, { required: false }],
    ]);
  });

  it("refuses to require what is already required, and changes nothing", async () => {
    actAs(team.owner.id);
    expect(await setTwoFactorRequirementAction(null, form({ orgId: team.org.id, required: "on" }))).toEqual({
      ok: false,
      error: "Two-factor is already required for everyone.",
    });
    expect(await setTwoFactorRequirementAction(null, form({ orgId: team.org.id, required: "maybe" }))).toMatchObject({
      ok: false,
      fieldErrors: { required: [expect.any(String)] },
    });
  });
});
