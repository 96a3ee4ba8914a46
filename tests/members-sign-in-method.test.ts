import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { isSsoRequired, listMembers } from "@/db/queries/members";
import { ssoConnections, ssoIdentities, users } from "@/db/schema";
import { addMember, createOrg, createTeam, giveSecondFactor } from "./helpers/factories";

// How each person signs in, as the Members page shows it (docs/features/members.md#the-page): read
// from the database as the page reads it, for one organization while another one exists beside it.

let team: Awaited<ReturnType<typeof createTeam>>;
let otherOrg: Awaited<ReturnType<typeof createOrg>>;

beforeEach(async () => {
  team = await createTeam("pro");
  otherOrg = await createOrg("pro");
});

async function linkIdentity(orgId: string, userId: string, lastSignInAt: Date) {
  await getDb()
    .insert(ssoIdentities)
    .values({ orgId, issuer: `https://idp.example.test/${orgId}`, subject: `sub-${userId}`, userId, lastSignInAt });
}

async function signInOf(userId: string) {
  const member = (await listMembers(team.org.id)).find((row) => row.userId === userId)!;
  return { hasPassword: member.hasPassword, hasTwoFactor: member.hasTwoFactor, ssoLastSignInAt: member.ssoLastSignInAt };
}

describe("the Members page's sign-in column", () => {
  it("tells a password, this organization's provider, both, and the second factor apart", async () => {
    // Joined through the provider: no password, an identity here (and one at another organization's provider).
    const ssoOnly = await addMember(team.org.id, "member", "Sam Sso");
    await getDb().update(users).set({ passwordHash: null }).where(eq(users.id, ssoOnly.id));
    const here = new Date("2026-03-01T10:00:00Z");
    await linkIdentity(team.org.id, ssoOnly.id, here);
    await linkIdentity(otherOrg.id, ssoOnly.id, new Date("2026-04-01T10:00:00Z"));
    // A password of their own, linked to the provider later, and a second factor.
    const both = new Date("2026-02-01T08:30:00Z");
    await linkIdentity(team.org.id, team.admin.id, both);
    await giveSecondFactor(team.admin.id);
    // Linked to another organization's provider only: a password person here.
    await linkIdentity(otherOrg.id, team.guest.id, new Date("2026-04-02T10:00:00Z"));

    expect(await signInOf(team.owner.id)).toEqual({ hasPassword: true, hasTwoFactor: false, ssoLastSignInAt: null });
    expect(await signInOf(ssoOnly.id)).toEqual({ hasPassword: false, hasTwoFactor: false, ssoLastSignInAt: here.toISOString() });
    expect(await signInOf(team.admin.id)).toEqual({ hasPassword: true, hasTwoFactor: true, ssoLastSignInAt: both.toISOString() });
    expect(await signInOf(team.guest.id)).toEqual({ hasPassword: true, hasTwoFactor: false, ssoLastSignInAt: null });
    // Each member once, however many organizations' providers know them.
    expect((await listMembers(team.org.id)).map((member) => member.userId).sort()).toEqual(
      [team.owner.id, team.admin.id, team.member.id, team.guest.id, ssoOnly.id].sort(),
    );
  });

  it("never returns the password hash, only whether there is one", async () => {
    const [{ hash }] = (await getDb().select({ hash: users.passwordHash }).from(users).where(eq(users.id, team.owner.id))) as [{ hash: string }];
    const members = await listMembers(team.org.id);
    expect(JSON.stringify(members)).not.toContain(hash);
    for (const member of members) expect(Object.keys(member)).not.toContain("passwordHash");
  });
});

describe("the single sign-on requirement's note", () => {
  it("shows only when this organization requires single sign-on", async () => {
    const connection = { id: "ssoc_test", issuer: "https://idp.example.test", clientId: "client", sealedClientSecret: "sealed", secretHint: "cret" };
    expect(await isSsoRequired(team.org.id)).toBe(false);
    await getDb()
      .insert(ssoConnections)
      .values({ ...connection, orgId: otherOrg.id, requireSso: true });
    expect(await isSsoRequired(team.org.id)).toBe(false);
    await getDb()
      .insert(ssoConnections)
      .values({ ...connection, orgId: team.org.id, requireSso: false });
    expect(await isSsoRequired(team.org.id)).toBe(false);
    await getDb().update(ssoConnections).set({ requireSso: true }).where(eq(ssoConnections.orgId, team.org.id));
    expect(await isSsoRequired(team.org.id)).toBe(true);
  });
});
