import { and, eq, sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { acceptInvitationAction } from "@/app/(auth)/actions";
import {
  changeMemberRoleAction,
  inviteMemberAction,
  leaveOrganizationAction,
  removeMemberAction,
  revokeInvitationAction,
  transferOwnershipAction,
} from "@/app/[orgSlug]/settings/members/actions";
import { getDb } from "@/db";
import { rowsOf } from "@/db/rows";
import { listOpenInvitations } from "@/db/queries/invitations";
import { listMembers } from "@/db/queries/members";
import { listMemberships } from "@/db/queries/organizations";
import { createSession } from "@/db/queries/sessions";
import { activityLog, invitations, memberships, users } from "@/db/schema";
import type { Role } from "@/core/enums";
import { hashInvitationToken } from "@/lib/invitations/token";
import { acceptInvitation, findInvitation, signUpWithInvitation } from "@/lib/invitations/accept";
import { requireOrgAccess } from "@/lib/org-access";
import { addMember, createTeam, createUser, form } from "./helpers/factories";
import { actAs, readAs, testSession } from "./helpers/session";

let team: Awaited<ReturnType<typeof createTeam>>;

beforeEach(async () => {
  team = await createTeam("pro");
  actAs(team.owner.id);
});

const NOT_FOUND = expect.objectContaining({ digest: expect.stringMatching(/404|NOT_FOUND/) });
const CLIENT = { ip: "203.0.113.10", userAgent: "vitest" };

async function invite(email: string, role: Role, as = team.owner.id) {
  actAs(as);
  const result = await inviteMemberAction(null, form({ orgId: team.org.id, email, role }));
  if (!result.ok) throw new Error(result.error);
  return { ...result.data, token: result.data.url.split("/invite/")[1]! };
}

async function roleOf(userId: string): Promise<Role | null> {
  const [row] = await getDb()
    .select({ role: memberships.role })
    .from(memberships)
    .where(and(eq(memberships.orgId, team.org.id), eq(memberships.userId, userId)));
  return row?.role ?? null;
}

async function historyOf(action: string) {
  return getDb()
    .select()
    .from(activityLog)
    .where(and(eq(activityLog.orgId, team.org.id), eq(activityLog.action, action)));
}

describe("inviting", () => {
  it("gives a single-use link valid 7 days, stores only its hash, and lists the invitation as pending", async () => {
    const before = Date.now();
    const invited = await invite("  New.Admin@Example.COM ", "admin");
    expect(invited).toMatchObject({ email: "new.admin@example.com", role: "admin", replaced: false });
    expect(invited.token).toMatch(/^inv_[0-9A-Za-z]{32}$/);
    const [row] = await getDb().select().from(invitations).where(eq(invitations.id, invited.id));
    expect(row!.tokenHash).toBe(hashInvitationToken(invited.token));
    expect(JSON.stringify(row)).not.toContain(invited.token);
    expect(row!.expiresAt.getTime() - before).toBeGreaterThanOrEqual(7 * 86_400_000 - 1_000);
    expect(row!.expiresAt.getTime() - before).toBeLessThanOrEqual(7 * 86_400_000 + 5_000);
    expect(await listOpenInvitations(team.org.id)).toEqual([
      expect.objectContaining({ email: "new.admin@example.com", role: "admin", invitedByName: team.owner.name, expired: false }),
    ]);
    const [entry] = await historyOf("invitation.created");
    expect(entry).toMatchObject({
      actorUserId: team.owner.id,
      targetType: "invitation",
      targetId: invited.id,
      after: { email: "new.admin@example.com", role: "admin" },
    });
    expect(JSON.stringify(entry)).not.toContain(invited.token);
  });

  it("replaces an open invitation to the same email: the old link stops working", async () => {
    const first = await invite("twice@example.com", "member");
    const second = await invite("twice@example.com", "guest");
    expect(second.replaced).toBe(true);
    expect(await findInvitation(first.token)).toMatchObject({ state: "revoked" });
    expect(await findInvitation(second.token)).toMatchObject({ state: "open", role: "guest" });
    expect(await listOpenInvitations(team.org.id)).toHaveLength(1);
  });

  it("refuses an existing member's email, bad input, and roles above the inviter's, changing nothing", async () => {
    actAs(team.owner.id);
    const cases: [Record<string, string>, string][] = [
      [{ email: team.member.email, role: "guest" }, "email"],
      [{ email: "not-an-email", role: "member" }, "email"],
      [{ email: `${"a".repeat(250)}@example.com`, role: "member" }, "email"],
      [{ email: "x@example.com", role: "superuser" }, "role"],
      [{ email: "x@example.com", role: "" }, "role"],
      [{ email: "", role: "member" }, "email"],
    ];
    for (const [values, field] of cases) {
      const result = await inviteMemberAction(null, form({ orgId: team.org.id, ...values }));
      expect(result.ok, JSON.stringify(values)).toBe(false);
      if (!result.ok) expect(result.fieldErrors?.[field]?.[0], JSON.stringify(values)).toBeTruthy();
    }
    actAs(team.admin.id);
    for (const role of ["owner", "admin"]) {
      const result = await inviteMemberAction(null, form({ orgId: team.org.id, email: "boss@example.com", role }));
      expect(result).toEqual({
        ok: false,
        error: "Only owners can invite, re-role or remove admins and owners.",
        fieldErrors: { role: ["Only owners can invite, re-role or remove admins and owners."] },
      });
    }
    expect(await getDb().select().from(invitations).where(eq(invitations.orgId, team.org.id))).toEqual([]);
    expect(await historyOf("invitation.created")).toEqual([]);
  });

  it("lets an admin invite members and guests and revoke those invitations, but not revoke an owner's invitation to an admin", async () => {
    const guest = await invite("guest@example.com", "guest", team.admin.id);
    const admin = await invite("admin2@example.com", "admin", team.owner.id);
    actAs(team.admin.id);
    expect(await revokeInvitationAction(null, { orgId: team.org.id, invitationId: admin.id })).toMatchObject({
      ok: false,
      error: "Only owners can invite, re-role or remove admins and owners.",
    });
    expect(await revokeInvitationAction(null, { orgId: team.org.id, invitationId: guest.id })).toMatchObject({ ok: true });
    expect(await findInvitation(guest.token)).toMatchObject({ state: "revoked" });
    expect(await findInvitation(admin.token)).toMatchObject({ state: "open" });
    expect(await revokeInvitationAction(null, { orgId: team.org.id, invitationId: guest.id })).toMatchObject({
      ok: false,
      error: "This invitation was already accepted, revoked or replaced.",
    });
    expect(await historyOf("invitation.revoked")).toHaveLength(1);
  });
});

describe("accepting", () => {
  it("adds the membership with the invited role and lands in the organization; the link then says it was used", async () => {
    const invited = await invite("joiner@example.com", "admin");
    const joiner = await createUser("Jo Iner");
    await getDb().update(users).set({ email: "joiner@example.com" }).where(eq(users.id, joiner.id));
    actAs(joiner.id);
    await expect(acceptInvitationAction(null, form({ token: invited.token }))).rejects.toMatchObject({
      digest: expect.stringContaining(`/${team.org.slug}/settings/api`),
    });
    expect(await roleOf(joiner.id)).toBe("admin");
    const [entry] = await historyOf("member.joined");
    expect(entry).toMatchObject({ actorUserId: joiner.id, targetType: "member", targetId: joiner.id, after: { role: "admin", email: "joiner@example.com" } });
    expect(await listOpenInvitations(team.org.id)).toEqual([]);
    const again = await acceptInvitationAction(null, form({ token: invited.token }));
    expect(again).toEqual({ ok: false, error: `This invitation to ${team.org.name} has already been used. Each link works once.` });
  });

  it("cannot be accepted twice at once", async () => {
    const invited = await invite("racer@example.com", "member");
    const racer = await createUser("Racer");
    await getDb().update(users).set({ email: "racer@example.com" }).where(eq(users.id, racer.id));
    const results = await Promise.allSettled([acceptInvitation(invited.token, racer.id, CLIENT), acceptInvitation(invited.token, racer.id, CLIENT)]);
    expect(results.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
    expect(await historyOf("member.joined")).toHaveLength(1);
  });

  it("refuses another account's email, an expired link, a revoked link and a made-up one, adding nobody", async () => {
    const invited = await invite("right@example.com", "member");
    actAs(team.member.id);
    expect(await acceptInvitationAction(null, form({ token: invited.token }))).toEqual({
      ok: false,
      error: `This invitation is for right@example.com, and you are signed in as ${team.member.email}. Sign out and sign in with right@example.com to accept it.`,
    });

    const outsider = await createUser("Right Person");
    await getDb().update(users).set({ email: "right@example.com" }).where(eq(users.id, outsider.id));
    await getDb()
      .update(invitations)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(invitations.id, invited.id));
    actAs(outsider.id);
    expect(await acceptInvitationAction(null, form({ token: invited.token }))).toMatchObject({ ok: false, error: expect.stringContaining("expired on") });

    const revoked = await invite("right@example.com", "member");
    actAs(team.owner.id);
    await revokeInvitationAction(null, { orgId: team.org.id, invitationId: revoked.id });
    actAs(outsider.id);
    expect(await acceptInvitationAction(null, form({ token: revoked.token }))).toMatchObject({ ok: false, error: expect.stringContaining("was revoked") });
    expect(await acceptInvitationAction(null, form({ token: "inv_" + "0".repeat(32) }))).toMatchObject({
      ok: false,
      error: expect.stringContaining("not valid"),
    });
    expect(await acceptInvitationAction(null, form({ token: "../../etc/passwd" }))).toMatchObject({
      ok: false,
      fieldErrors: { token: ["This invitation link is not valid."] },
    });
    expect(await roleOf(outsider.id)).toBeNull();
    expect(await historyOf("member.joined")).toEqual([]);
  });

  it("signs a new person up with the invited email and no organization of their own; an existing account must sign in instead", async () => {
    const invited = await invite("fresh@example.com", "admin");
    const { email, orgSlug } = await signUpWithInvitation({ token: invited.token, name: "Fresh Person", password: "a-long-password" }, CLIENT);
    expect({ email, orgSlug }).toEqual({ email: "fresh@example.com", orgSlug: team.org.slug });
    const [user] = await getDb().select().from(users).where(eq(users.email, "fresh@example.com"));
    expect(await listMemberships(user!.id)).toEqual([expect.objectContaining({ orgId: team.org.id, role: "admin" })]);
    await expect(signUpWithInvitation({ token: invited.token, name: "Fresh Again", password: "a-long-password" }, CLIENT)).rejects.toThrow("already been used");

    const forMember = await invite("taken@example.com", "member");
    const existing = await createUser("Has Account");
    await getDb().update(users).set({ email: "taken@example.com" }).where(eq(users.id, existing.id));
    await expect(signUpWithInvitation({ token: forMember.token, name: "Someone", password: "a-long-password" }, CLIENT)).rejects.toThrow(
      "An account with taken@example.com already exists. Sign in to accept the invitation.",
    );
    expect(await findInvitation(forMember.token)).toMatchObject({ state: "open" });
  });
});

describe("roles, removal and the last owner", () => {
  it("lets admins re-role members and guests only, and owners anyone", async () => {
    actAs(team.admin.id);
    expect(await changeMemberRoleAction(null, form({ orgId: team.org.id, userId: team.member.id, role: "guest" }))).toMatchObject({ ok: true });
    expect(await changeMemberRoleAction(null, form({ orgId: team.org.id, userId: team.guest.id, role: "admin" }))).toMatchObject({
      ok: false,
      fieldErrors: { role: [expect.stringContaining("Only owners")] },
    });
    expect(await changeMemberRoleAction(null, form({ orgId: team.org.id, userId: team.owner.id, role: "member" }))).toMatchObject({
      ok: false,
      error: expect.stringContaining("Only owners"),
    });
    expect(await changeMemberRoleAction(null, form({ orgId: team.org.id, userId: team.admin.id, role: "member" }))).toMatchObject({
      ok: false,
      error: expect.stringContaining("Only owners"),
    });
    actAs(team.owner.id);
    expect(await changeMemberRoleAction(null, form({ orgId: team.org.id, userId: team.admin.id, role: "owner" }))).toMatchObject({
      ok: true,
      data: { role: "owner" },
    });
    expect(await roleOf(team.member.id)).toBe("guest");
    expect(await roleOf(team.admin.id)).toBe("owner");
    const entries = await historyOf("member.role_changed");
    expect(entries.map((entry) => [entry.actorUserId, entry.targetId, entry.before, entry.after])).toEqual(
      expect.arrayContaining([
        [team.admin.id, team.member.id, { role: "member" }, { role: "guest" }],
        [team.owner.id, team.admin.id, { role: "admin" }, { role: "owner" }],
      ]),
    );
  });

  it("keeps the last owner: no demotion, removal or leaving; ownership transfer makes the other an owner and the owner an admin", async () => {
    actAs(team.owner.id);
    expect(await changeMemberRoleAction(null, form({ orgId: team.org.id, userId: team.owner.id, role: "admin" }))).toMatchObject({
      ok: false,
      error: expect.stringContaining("You are the organization's last owner"),
    });
    expect(await leaveOrganizationAction(null, form({ orgId: team.org.id }))).toMatchObject({
      ok: false,
      error: expect.stringContaining("last owner, so cannot leave"),
    });
    expect(await removeMemberAction(null, form({ orgId: team.org.id, userId: team.owner.id }))).toMatchObject({
      ok: false,
      error: "To remove yourself, leave the organization.",
    });
    expect(await roleOf(team.owner.id)).toBe("owner");

    expect(await transferOwnershipAction(null, form({ orgId: team.org.id, userId: team.member.id }))).toMatchObject({ ok: true });
    expect([await roleOf(team.member.id), await roleOf(team.owner.id)]).toEqual(["owner", "admin"]);
    expect((await historyOf("member.role_changed")).map((entry) => [entry.targetId, entry.after])).toEqual(
      expect.arrayContaining([
        [team.member.id, { role: "owner", via: "ownership transfer" }],
        [team.owner.id, { role: "admin", via: "ownership transfer" }],
      ]),
    );
    // The former owner is an admin now: transferring again is refused.
    expect(await transferOwnershipAction(null, form({ orgId: team.org.id, userId: team.guest.id }))).toMatchObject({
      ok: false,
      error: "Only owners can invite, re-role or remove admins and owners.",
    });
  });

  it("never leaves zero owners when two owners demote each other at the same time", async () => {
    for (let round = 0; round < 8; round++) {
      const org = await createTeam("pro");
      const second = await addMember(org.org.id, "owner", "Second owner");
      const demote = (actor: string, target: string) =>
        readAs(actor, () => changeMemberRoleAction(null, form({ orgId: org.org.id, userId: target, role: "admin" })));
      // actAs is process-wide: each call reads its actor before the first await of the other.
      const results = await Promise.all([demote(org.owner.id, second.id), demote(second.id, org.owner.id)]);
      const left = rowsOf<{ n: number }>(
        await getDb().execute(sql`select count(*)::int as n from memberships where org_id = ${org.org.id} and role = 'owner'`),
      )[0]!.n;
      expect(left).toBe(1);
      expect(results.filter((result) => result.ok)).toHaveLength(1);
    }
  });

  it("removes a member, whose next page load in the organization is a 404, and lets a member leave", async () => {
    actAs(team.admin.id);
    expect(await removeMemberAction(null, form({ orgId: team.org.id, userId: team.member.id }))).toMatchObject({ ok: true, data: { name: team.member.name } });
    await expect(readAs(team.member.id, () => requireOrgAccess(team.org.slug))).rejects.toEqual(NOT_FOUND);
    actAs(team.admin.id);
    expect(await removeMemberAction(null, form({ orgId: team.org.id, userId: team.member.id }))).toMatchObject({
      ok: false,
      error: "This person is not a member of this organization.",
    });
    actAs(team.admin.id);
    expect(await removeMemberAction(null, form({ orgId: team.org.id, userId: team.owner.id }))).toMatchObject({
      ok: false,
      error: expect.stringContaining("Only owners"),
    });

    actAs(team.guest.id);
    expect(await leaveOrganizationAction(null, form({ orgId: team.org.id }))).toMatchObject({ ok: true });
    await expect(readAs(team.guest.id, () => requireOrgAccess(team.org.slug))).rejects.toEqual(NOT_FOUND);
    expect((await historyOf("member.removed")).map((entry) => entry.targetId)).toEqual([team.member.id]);
    expect((await historyOf("member.left")).map((entry) => entry.actorUserId)).toEqual([team.guest.id]);
    expect((await listMembers(team.org.id)).map((member) => member.role)).toEqual(["owner", "admin"]);
  });

  it("refuses another organization's member and every change from members and guests", async () => {
    const other = await createTeam("pro");
    actAs(team.owner.id);
    expect(await removeMemberAction(null, form({ orgId: team.org.id, userId: other.member.id }))).toMatchObject({
      ok: false,
      error: "This person is not a member of this organization.",
    });
    expect(await changeMemberRoleAction(null, form({ orgId: other.org.id, userId: other.member.id, role: "guest" }))).toEqual({
      ok: false,
      error: "Organization not found.",
    });
    for (const role of ["member", "guest"] as const) {
      actAs(team.byRole[role].id);
      expect(await inviteMemberAction(null, form({ orgId: team.org.id, email: "x@example.com", role: "guest" }))).toMatchObject({
        ok: false,
        error: "Only owners and admins can invite, re-role or remove members.",
      });
      expect(await changeMemberRoleAction(null, form({ orgId: team.org.id, userId: team.guest.id, role: "member" }))).toMatchObject({
        ok: false,
        error: "Only owners and admins can invite, re-role or remove members.",
      });
      expect(await removeMemberAction(null, form({ orgId: team.org.id, userId: team.guest.id }))).toMatchObject({ ok: false });
    }
    expect((await listMembers(team.org.id)).map((member) => member.role)).toEqual(["owner", "admin", "member", "guest"]);
  });
});

describe("last sign-in", () => {
  it("is recorded when a session starts and shown with the members", async () => {
    expect((await listMembers(team.org.id)).find((member) => member.userId === team.admin.id)?.lastSignInAt).toBeNull();
    const before = Date.now();
    await createSession(team.admin.id, testSession.client, { secondFactorPending: false });
    const shown = (await listMembers(team.org.id)).find((member) => member.userId === team.admin.id)!;
    expect(Date.parse(shown.lastSignInAt!)).toBeGreaterThanOrEqual(before - 1000);
  });
});
