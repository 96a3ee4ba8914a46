import { beforeEach, describe, expect, it } from "vitest";
import { setSsoRequirementAction } from "@/app/[orgSlug]/settings/sso/actions";
import { getDb } from "@/db";
import { ssoDomains } from "@/db/schema";
import { eq } from "drizzle-orm";
import { orgAccess } from "@/lib/org-access";
import { storeSsoConnection } from "@/lib/sso/connection-changes";
import { createTeam } from "./helpers/factories";
import { actAs, actAsOutsideSudoMode, actAsThroughSso } from "./helpers/session";
import { historyOf, must, ssoState } from "./helpers/sso";
import { freshDomain } from "./helpers/sso-sign-in";

// "Require SSO" (docs/features/sso.md#requiring-it): owners turn it on in sudo mode once a provider and
// a verified domain exist; members and admins then reach the organization only from a session its
// provider made, owners with their password still.

type Team = Awaited<ReturnType<typeof createTeam>>;
let team: Team;

beforeEach(async () => {
  team = await createTeam("enterprise");
  await storeSsoConnection(getDb(), team.org.id, { issuer: "https://idp.example", clientId: "c", clientSecret: "s", defaultRole: "member" }, null);
  await getDb()
    .insert(ssoDomains)
    .values({ id: "dom_req", orgId: team.org.id, domain: freshDomain(), verificationToken: "t".repeat(32), verifiedAt: new Date() });
  actAs(team.owner.id);
});

const turn = (required: "on" | "off") => setSsoRequirementAction(null, { orgId: team.org.id, required });

describe("turning it on and off", () => {
  it("is an owner's change in sudo mode, recorded in the history", async () => {
    expect(must(await turn("on")).data).toEqual({ required: true });
    const [entry] = await historyOf(team.org.id, "sso_connection.requirement_changed");
    expect(entry).toMatchObject({ actorUserId: team.owner.id, before: { required: false }, after: { required: true } });
    expect(must(await turn("off")).data).toEqual({ required: false });
  });

  it("is refused to admins, members and guests, and outside sudo mode, changing nothing", async () => {
    const before = await ssoState(team.org.id);
    for (const role of ["admin", "member", "guest"] as const) {
      actAs(team.byRole[role].id);
      expect(await turn("on")).toMatchObject({ ok: false, error: "Only owners can set up single sign-on." });
    }
    actAsOutsideSudoMode(team.owner.id);
    expect(await turn("on")).toMatchObject({ ok: false, reauthenticate: true });
    expect(await ssoState(team.org.id)).toBe(before);
  });

  it("needs a verified domain, and bad input changes nothing", async () => {
    await getDb().update(ssoDomains).set({ verifiedAt: null }).where(eq(ssoDomains.orgId, team.org.id));
    const before = await ssoState(team.org.id);
    expect(await turn("on")).toMatchObject({ ok: false, error: expect.stringContaining("Verify an email domain first") });
    expect(await setSsoRequirementAction(null, { orgId: team.org.id, required: "maybe" })).toMatchObject({
      ok: false,
      fieldErrors: { required: [expect.any(String)] },
    });
    expect(await ssoState(team.org.id)).toBe(before);
  });
});

describe("who gets in while it is on", () => {
  beforeEach(async () => {
    must(await turn("on"));
  });

  it("members and admins only from a session this organization's provider made", async () => {
    for (const role of ["admin", "member", "guest"] as const) {
      actAs(team.byRole[role].id);
      expect(await orgAccess(team.org.slug)).toMatchObject({ ok: false, status: 403, requiredBy: { requirement: "sso" } });
      actAsThroughSso(team.byRole[role].id, team.org.id);
      expect(await orgAccess(team.org.slug)).toMatchObject({ ok: true });
    }
  });

  it("not from a session another organization's provider made", async () => {
    const other = await createTeam("enterprise");
    actAsThroughSso(team.member.id, other.org.id);
    expect(await orgAccess(team.org.slug)).toMatchObject({ ok: false, requiredBy: { requirement: "sso" } });
  });

  it("owners with their password, as a way back in", async () => {
    actAs(team.owner.id);
    expect(await orgAccess(team.org.slug)).toMatchObject({ ok: true });
  });

  it("refuses a member's password session the dashboard's changes too", async () => {
    actAs(team.admin.id);
    const refused = await setSsoRequirementAction(null, { orgId: team.org.id, required: "off" });
    expect(refused).toMatchObject({ ok: false, error: expect.stringContaining("requires single sign-on") });
  });
});
