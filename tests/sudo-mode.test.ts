import { and, eq, sql } from "drizzle-orm";
import { generate } from "otplib";
import { describe, expect, it, vi } from "vitest";
import { getDb } from "@/db";
import { apiKeys, invitations, memberships, sessions, totpFactors, users } from "@/db/schema";
import { hashPassword } from "@/lib/auth/password";
import { MAX_FAILURES_PER_EMAIL } from "@/lib/auth/credentials";
import type { ActionResult } from "@/lib/action-result";
import { addMember, createOrg, form, giveSecondFactor, insertKey } from "./helpers/factories";
import { orgFingerprint } from "./helpers/fuzz-probe";
import { Browser } from "./helpers/next-request";

// Sudo mode through the real chain: the session row's authenticated_at, read by
// lib/session.ts from next-auth's cookie, decides whether a sensitive change may go ahead.
vi.hoisted(() => {
  process.env.AUTH_SECRET = "vitest-secret-not-for-production-0123456789";
});
vi.mock("next/headers", async () => (await import("./helpers/next-request")).nextHeadersModule);
vi.unmock("@/lib/session");

const { signInAction } = await import("@/app/(auth)/actions");
const { addPasskeyAction, beginTotpSetupAction, confirmIdentityAction, confirmTotpSetupAction, renewRecoveryCodesAction } =
  await import("@/app/settings/security/actions");
const keyActions = await import("@/app/[orgSlug]/settings/api/actions");
const { setKeyPolicyAction, setLeakedKeyResponseAction } = await import("@/app/[orgSlug]/settings/api/policy/actions");
const planActions = await import("@/app/[orgSlug]/settings/plan/actions");
const memberActions = await import("@/app/[orgSlug]/settings/members/actions");
const webhookActions = await import("@/app/[orgSlug]/settings/webhooks/actions");
const { createSlackChannelAction } = await import("@/app/[orgSlug]/settings/alerts/actions");
const ssoActions = await import("@/app/[orgSlug]/settings/sso/actions");

const PASSWORD = "the-owners-password";
let ipCounter = 0;
const freshIp = () => `192.0.2.${++ipCounter}`;

/** An owner signed in with their password in a browser of their own, with a key and a member to act on. */
async function signedInOwner() {
  const org = await createOrg("enterprise");
  const owner = await addMember(org.id, "owner", "Olive Owner");
  const member = await addMember(org.id, "member", "Mel Member");
  await getDb()
    .update(users)
    .set({ passwordHash: await hashPassword(PASSWORD) })
    .where(eq(users.id, owner.id));
  const browser = new Browser(freshIp());
  await browser.request(() => signInAction(null, form({ email: owner.email, password: PASSWORD, callbackUrl: "/" }))).catch(() => {});
  const key = await insertKey(org.id, { name: "Production billing" });
  return { org, owner, member, browser, key };
}

/** Makes the owner's session have last given a password `minutes` ago. */
async function lastAuthenticated(userId: string, minutes: number) {
  await getDb()
    .update(sessions)
    .set({ authenticatedAt: sql`now() - ${minutes}::int * interval '1 minute'` })
    .where(eq(sessions.userId, userId));
}

const isRevoked = async (keyId: string) =>
  (await getDb().select({ revokedAt: apiKeys.revokedAt }).from(apiKeys).where(eq(apiKeys.id, keyId)))[0]!.revokedAt !== null;

const SUDO_REFUSAL = { ok: false, reauthenticate: true, error: expect.stringContaining("Confirm it's you") };

describe("sudo mode", () => {
  it("refuses a revoke 11 minutes after the last authentication and allows it after a fresh one", async () => {
    const { org, owner, browser, key } = await signedInOwner();
    const revoke = () => browser.request(() => keyActions.revokeApiKeyAction(null, form({ orgId: org.id, keyId: key.id })));

    await lastAuthenticated(owner.id, 11);
    const before = await orgFingerprint(org.id);
    expect(await revoke()).toEqual(SUDO_REFUSAL);
    expect(await isRevoked(key.id)).toBe(false);
    expect(await orgFingerprint(org.id)).toBe(before);

    // A wrong password confirms nothing.
    const wrong = await browser.request(() => confirmIdentityAction(null, form({ method: "password", password: "not-the-password" })));
    expect(wrong).toMatchObject({ ok: false, fieldErrors: { password: ["That password is not right."] } });
    expect(await revoke()).toEqual(SUDO_REFUSAL);

    expect(await browser.request(() => confirmIdentityAction(null, form({ method: "password", password: PASSWORD })))).toEqual({
      ok: true,
      data: { confirmed: true },
    });
    expect(await revoke()).toMatchObject({ ok: true });
    expect(await isRevoked(key.id)).toBe(true);
  });

  it("lets a change through within 10 minutes of signing in, without asking", async () => {
    const { org, owner, browser, key } = await signedInOwner();
    await lastAuthenticated(owner.id, 9);
    expect(await browser.request(() => keyActions.revokeApiKeyAction(null, form({ orgId: org.id, keyId: key.id })))).toMatchObject({ ok: true });
  });

  it("guards every sensitive change, every grant or removal of a role or a second factor, and no other", async () => {
    const { org, owner, member, browser, key } = await signedInOwner();
    await lastAuthenticated(owner.id, 11);
    const orgId = org.id;
    const endpointId = "whe_notlookedup";
    const guarded: [string, () => Promise<ActionResult<unknown>>][] = [
      ["roll a key", () => keyActions.rollApiKeyAction(null, form({ orgId, keyId: key.id, overlap: "now" }))],
      ["revoke a key", () => keyActions.revokeApiKeyAction(null, form({ orgId, keyId: key.id }))],
      ["set the key policy", () => setKeyPolicyAction(null, form({ orgId, maxLifetimeDays: "90" }))],
      ["change the plan", () => planActions.changePlanAction(null, form({ orgId, plan: "pro" }))],
      ["set the rate limit", () => planActions.setRateLimitAction(null, form({ orgId, rateLimitPerMinute: 500 }))],
      ["change a member's role", () => memberActions.changeMemberRoleAction(null, form({ orgId, userId: member.id, role: "admin" }))],
      ["transfer ownership", () => memberActions.transferOwnershipAction(null, form({ orgId, userId: member.id }))],
      ["require two-factor", () => memberActions.setTwoFactorRequirementAction(null, form({ orgId, required: "off" }))],
      ["choose the leaked-key response", () => setLeakedKeyResponseAction(null, form({ orgId, response: "alert" }))],
      ["delete all test data", () => keyActions.deleteTestDataAction(null, form({ orgId }))],
      [
        "add a webhook endpoint",
        () => webhookActions.createWebhookEndpointAction(null, form({ orgId, url: "https://example.com/hooks", eventTypes: "key.created" })),
      ],
      ["add a Slack channel", () => createSlackChannelAction(null, form({ orgId, url: "https://hooks.slack.com/services/T0/B0/x" }))],
      ["turn an endpoint off", () => webhookActions.setWebhookEndpointEnabledAction(null, form({ orgId, endpointId, enabled: "false" }))],
      ["roll an endpoint's secret", () => webhookActions.rotateWebhookSecretAction(null, form({ orgId, endpointId }))],
      ["delete an endpoint", () => webhookActions.deleteWebhookEndpointAction(null, form({ orgId, endpointId }))],
      [
        "save the single sign-on provider",
        () => ssoActions.saveSsoConnectionAction(null, form({ orgId, issuer: "https://login.example.com", clientId: "app", clientSecret: "secret" })),
      ],
      ["remove the single sign-on provider", () => ssoActions.removeSsoConnectionAction(null, form({ orgId }))],
      ["add an email domain", () => ssoActions.addSsoDomainAction(null, form({ orgId, domain: "example.com" }))],
      ["verify an email domain", () => ssoActions.verifySsoDomainAction(null, form({ orgId, domainId: "dom_notlookedup" }))],
      ["remove an email domain", () => ssoActions.removeSsoDomainAction(null, form({ orgId, domainId: "dom_notlookedup" }))],
      ["renew recovery codes", () => renewRecoveryCodesAction(null, {})],
      // Who has a role: every grant and every removal, whatever the role.
      ["invite an owner", () => memberActions.inviteMemberAction(null, form({ orgId, email: "new.owner@example.com", role: "owner" }))],
      ["invite a guest", () => memberActions.inviteMemberAction(null, form({ orgId, email: "new.guest@example.com", role: "guest" }))],
      ["revoke an invitation", () => memberActions.revokeInvitationAction(null, form({ orgId, invitationId: "ivt_notlookedup" }))],
      ["remove a member", () => memberActions.removeMemberAction(null, form({ orgId, userId: member.id }))],
      // A second factor answers sudo mode's question: adding one is as sensitive as what it unlocks.
      ["add an authenticator app", () => confirmTotpSetupAction(null, form({ code: "123456" }))],
      ["add a passkey", () => addPasskeyAction(null, { name: "Thief's key", credential: {} })],
    ];
    const before = await orgFingerprint(orgId);
    for (const [change, run] of guarded) expect(await browser.request(run), change).toEqual(SUDO_REFUSAL);
    expect(await orgFingerprint(orgId)).toBe(before);
    expect(
      (
        await getDb()
          .select()
          .from(memberships)
          .where(and(eq(memberships.orgId, orgId), eq(memberships.userId, member.id)))
      )[0]!.role,
    ).toBe("member");

    // Everyday changes go ahead however long ago the password was given.
    expect(await browser.request(() => keyActions.renameApiKeyAction(null, form({ orgId, keyId: key.id, name: "Production billing server" })))).toMatchObject({
      ok: true,
    });
    expect(await browser.request(() => keyActions.createApiKeyAction(null, form({ orgId, name: "Staging", expiresIn: "never" })))).toMatchObject({ ok: true });
  });

  it("refuses a stale session's invitation of an owner, removal and revoked invitation, as an attacker calls them, until it confirms", async () => {
    const { org, owner, member, browser } = await signedInOwner();
    const orgId = org.id;
    const invite = (email: string, role: string) => browser.request(() => memberActions.inviteMemberAction(null, form({ orgId, email, role })));
    const roleOf = async (userId: string) =>
      (
        await getDb()
          .select({ role: memberships.role })
          .from(memberships)
          .where(and(eq(memberships.orgId, orgId), eq(memberships.userId, userId)))
      )[0]?.role;
    const openInvitations = async () =>
      getDb()
        .select({ id: invitations.id, email: invitations.email })
        .from(invitations)
        .where(and(eq(invitations.orgId, orgId), sql`${invitations.revokedAt} is null`));

    await lastAuthenticated(owner.id, 11);
    const before = await orgFingerprint(orgId);
    expect(await invite("accomplice@example.com", "owner")).toEqual(SUDO_REFUSAL);
    expect(await invite("accomplice@example.com", "member")).toEqual(SUDO_REFUSAL);
    expect(await browser.request(() => memberActions.removeMemberAction(null, form({ orgId, userId: member.id })))).toEqual(SUDO_REFUSAL);
    expect(await openInvitations()).toEqual([]);
    expect(await roleOf(member.id)).toBe("member");
    expect(await orgFingerprint(orgId)).toBe(before);

    // Confirmed, the owner invites; the session goes stale again, and the invitation stays until confirmed once more.
    expect(await browser.request(() => confirmIdentityAction(null, form({ method: "password", password: PASSWORD })))).toMatchObject({ ok: true });
    expect(await invite("new.admin@example.com", "admin")).toMatchObject({ ok: true, data: { email: "new.admin@example.com", role: "admin" } });
    const [invitation] = await openInvitations();
    await lastAuthenticated(owner.id, 11);
    const revoke = () => browser.request(() => memberActions.revokeInvitationAction(null, form({ orgId, invitationId: invitation!.id })));
    expect(await revoke()).toEqual(SUDO_REFUSAL);
    expect(await openInvitations()).toEqual([invitation]);

    expect(await browser.request(() => confirmIdentityAction(null, form({ method: "password", password: PASSWORD })))).toMatchObject({ ok: true });
    expect(await revoke()).toMatchObject({ ok: true, data: { id: invitation!.id } });
    expect(await openInvitations()).toEqual([]);
    expect(await browser.request(() => memberActions.removeMemberAction(null, form({ orgId, userId: member.id })))).toMatchObject({ ok: true });
    expect(await roleOf(member.id)).toBeUndefined();
  });

  it("refuses a stale session's new authenticator app, which would answer sudo mode's question from then on", async () => {
    const { owner, browser } = await signedInOwner();
    await lastAuthenticated(owner.id, 11);
    const setup = await browser.request(() => beginTotpSetupAction(null, {}));
    if (!setup.ok) throw new Error(setup.error);
    const code = await generate({ secret: setup.data.secret });
    const confirmSetup = () => browser.request(() => confirmTotpSetupAction(null, form({ code })));
    expect(await confirmSetup()).toEqual(SUDO_REFUSAL);
    const confirmedApp = async () =>
      (await getDb().select({ confirmedAt: totpFactors.confirmedAt }).from(totpFactors).where(eq(totpFactors.userId, owner.id)))[0]?.confirmedAt ?? null;
    expect(await confirmedApp()).toBeNull();

    // Confirmed with the password, the same code (untouched by the refusal) adds the app.
    expect(await browser.request(() => confirmIdentityAction(null, form({ method: "password", password: PASSWORD })))).toMatchObject({ ok: true });
    expect(await confirmSetup()).toMatchObject({ ok: true, data: { recoveryCodes: expect.any(Array) } });
    expect(await confirmedApp()).not.toBeNull();
  });

  it("asks the role before the password: a member is told they may not, not asked who they are", async () => {
    const { org, member, key } = await signedInOwner();
    await getDb()
      .update(users)
      .set({ passwordHash: await hashPassword(PASSWORD) })
      .where(eq(users.id, member.id));
    const browser = new Browser(freshIp());
    await browser.request(() => signInAction(null, form({ email: member.email, password: PASSWORD, callbackUrl: "/" }))).catch(() => {});
    await lastAuthenticated(member.id, 11);
    expect(await browser.request(() => keyActions.revokeApiKeyAction(null, form({ orgId: org.id, keyId: key.id })))).toEqual({
      ok: false,
      error: "Only owners can revoke API keys.",
    });
  });

  it("confirms with the authenticator app as well as the password, and counts wrong passwords with sign-in's", async () => {
    const { org, owner, browser, key } = await signedInOwner();
    const secret = await giveSecondFactor(owner.id);
    await lastAuthenticated(owner.id, 11);
    expect(await browser.request(() => confirmIdentityAction(null, form({ method: "totp", code: "000000" })))).toMatchObject({
      ok: false,
      fieldErrors: { code: [expect.any(String)] },
    });
    const code = await generate({ secret });
    expect(await browser.request(() => confirmIdentityAction(null, form({ method: "totp", code })))).toMatchObject({ ok: true });
    expect(await browser.request(() => keyActions.rollApiKeyAction(null, form({ orgId: org.id, keyId: key.id, overlap: "now" })))).toMatchObject({ ok: true });

    // Sign-in's window for the email: wrong passwords here count in it, and once it is full the
    // right password is refused as well.
    await lastAuthenticated(owner.id, 11);
    for (let attempt = 0; attempt < MAX_FAILURES_PER_EMAIL; attempt++) {
      expect(await browser.request(() => confirmIdentityAction(null, form({ method: "password", password: `wrong-${attempt}` })))).toMatchObject({ ok: false });
    }
    expect(await browser.request(() => confirmIdentityAction(null, form({ method: "password", password: PASSWORD })))).toEqual({
      ok: false,
      error: "Too many wrong passwords. Try again in 15 minutes.",
    });
    const [session] = await getDb().select({ authenticatedAt: sessions.authenticatedAt }).from(sessions).where(eq(sessions.userId, owner.id));
    expect(Date.now() - session!.authenticatedAt.getTime()).toBeGreaterThan(10 * 60 * 1000);
  });

  it("refuses bad input with a clear error and a signed-out visitor with the session's", async () => {
    const { browser } = await signedInOwner();
    expect(await browser.request(() => confirmIdentityAction(null, form({ method: "fingerprint" })))).toMatchObject({
      ok: false,
      error: "Check the highlighted fields.",
    });
    expect(await browser.request(() => confirmIdentityAction(null, form({ method: "password", password: "" })))).toMatchObject({
      ok: false,
      fieldErrors: { password: [expect.any(String)] },
    });
    const stranger = new Browser(freshIp());
    expect(await stranger.request(() => confirmIdentityAction(null, form({ method: "password", password: PASSWORD })))).toEqual({
      ok: false,
      error: "Your session has ended. Sign in again.",
    });
  });
});
