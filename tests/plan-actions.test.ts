import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createApiKeyAction } from "@/app/[orgSlug]/settings/api/actions";
import { changePlanAction, setRateLimitAction } from "@/app/[orgSlug]/settings/plan/actions";
import { getDb } from "@/db";
import { activityLog, apiKeys, organizations } from "@/db/schema";
import { addMember, createOrg, createTeam, form, insertKey } from "./helpers/factories";
import { actAs } from "./helpers/session";

async function orgRow(id: string) {
  const [row] = await getDb().select().from(organizations).where(eq(organizations.id, id));
  return row!;
}

describe("changing the plan", () => {
  it("lets the owner switch plans at once, recording who and when", async () => {
    const team = await createTeam("trial");
    actAs(team.owner.id);
    expect(await changePlanAction(null, form({ orgId: team.org.id, plan: "pro" }))).toEqual({ ok: true, data: { plan: "pro" } });
    const org = await orgRow(team.org.id);
    expect(org.plan).toBe("pro");
    expect(org.planChangedBy).toBe(team.owner.id);
    expect(org.planChangedAt).toBeInstanceOf(Date);
    const [activity] = await getDb().select().from(activityLog).where(eq(activityLog.action, "plan.changed"));
    expect(activity).toMatchObject({
      orgId: team.org.id,
      actorUserId: team.owner.id,
      before: { plan: "trial" },
      after: { plan: "pro" },
      ip: "203.0.113.10",
      userAgent: "vitest",
    });
  });

  it.each(["admin", "member", "guest"] as const)("refuses a plan change by an %s", async (role) => {
    const team = await createTeam("trial");
    actAs(team.byRole[role].id);
    expect(await changePlanAction(null, form({ orgId: team.org.id, plan: "enterprise" }))).toEqual({
      ok: false,
      error: "Only owners can change the plan and rate limit.",
    });
    expect((await orgRow(team.org.id)).plan).toBe("trial");
  });

  it("refuses an unknown plan", async () => {
    const team = await createTeam("trial");
    actAs(team.owner.id);
    const result = await changePlanAction(null, form({ orgId: team.org.id, plan: "platinum" }));
    expect(result).toMatchObject({ ok: false, fieldErrors: { plan: ["Choose one of the plans."] } });
    expect((await orgRow(team.org.id)).plan).toBe("trial");
  });

  it("keeps every key on a downgrade and waits for the organization to be under the new maximum", async () => {
    const org = await createOrg("pro");
    const owner = await addMember(org.id, "owner");
    for (let i = 0; i < 5; i++) await insertKey(org.id);
    actAs(owner.id);
    expect((await changePlanAction(null, form({ orgId: org.id, plan: "trial" }))).ok).toBe(true);
    expect(await getDb().select().from(apiKeys).where(eq(apiKeys.orgId, org.id))).toHaveLength(5);
    const refused = await createApiKeyAction(null, form({ orgId: org.id, name: "Sixth" }));
    expect(refused).toMatchObject({ ok: false, error: expect.stringContaining("Your Trial plan allows 2 active live keys") });
    // Test keys are counted apart: the five live keys leave room for two of them.
    const test = await createApiKeyAction(null, form({ orgId: org.id, name: "CI", mode: "test" }));
    expect(test).toMatchObject({ ok: true, data: { key: { mode: "test" } } });
  });
});

describe("the Enterprise rate limit", () => {
  it("lets the owner set it between 1 and 100,000", async () => {
    const team = await createTeam("enterprise");
    actAs(team.owner.id);
    for (const limit of [1, 600, 100_000]) {
      expect(await setRateLimitAction(null, form({ orgId: team.org.id, rateLimitPerMinute: limit }))).toEqual({
        ok: true,
        data: { rateLimitPerMinute: limit },
      });
      expect((await orgRow(team.org.id)).rateLimitPerMinute).toBe(limit);
    }
  });

  it.each([0, -5, 100_001, 1.5])("refuses %s and keeps the old limit", async (limit) => {
    const team = await createTeam("enterprise");
    actAs(team.owner.id);
    await setRateLimitAction(null, form({ orgId: team.org.id, rateLimitPerMinute: 120 }));
    const result = await setRateLimitAction(null, form({ orgId: team.org.id, rateLimitPerMinute: limit }));
    expect(result).toMatchObject({ ok: false, fieldErrors: { rateLimitPerMinute: [expect.any(String)] } });
    expect((await orgRow(team.org.id)).rateLimitPerMinute).toBe(120);
  });

  it("refuses text", async () => {
    const team = await createTeam("enterprise");
    actAs(team.owner.id);
    expect(await setRateLimitAction(null, form({ orgId: team.org.id, rateLimitPerMinute: "lots" }))).toMatchObject({ ok: false });
    expect((await orgRow(team.org.id)).rateLimitPerMinute).toBeNull();
  });

  it.each(["admin", "member", "guest"] as const)("refuses a change by an %s", async (role) => {
    const team = await createTeam("enterprise");
    actAs(team.byRole[role].id);
    expect(await setRateLimitAction(null, form({ orgId: team.org.id, rateLimitPerMinute: 500 }))).toEqual({
      ok: false,
      error: "Only owners can change the plan and rate limit.",
    });
    expect((await orgRow(team.org.id)).rateLimitPerMinute).toBeNull();
  });

  it("is refused outside the Enterprise plan", async () => {
    const team = await createTeam("pro");
    actAs(team.owner.id);
    expect(await setRateLimitAction(null, form({ orgId: team.org.id, rateLimitPerMinute: 500 }))).toMatchObject({
      ok: false,
      error: expect.stringContaining("Enterprise"),
    });
  });
});
