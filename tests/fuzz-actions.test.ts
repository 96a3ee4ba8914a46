import fc from "fast-check";
import { generate } from "otplib";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import {
  createApiKeyAction,
  renameApiKeyAction,
  revokeApiKeyAction,
  rollApiKeyAction,
  updateKeyRestrictionsAction,
} from "@/app/[orgSlug]/settings/api/actions";
import { createSlackChannelAction, markAlertsReadAction, setAlertSettingsAction } from "@/app/[orgSlug]/settings/alerts/actions";
import { setKeyPolicyAction, setLeakedKeyResponseAction } from "@/app/[orgSlug]/settings/api/policy/actions";
import {
  createWebhookEndpointAction,
  deleteWebhookEndpointAction,
  resendWebhookDeliveryAction,
  rotateWebhookSecretAction,
  sendTestWebhookAction,
  setWebhookEndpointEnabledAction,
} from "@/app/[orgSlug]/settings/webhooks/actions";
import { changePlanAction, setRateLimitAction } from "@/app/[orgSlug]/settings/plan/actions";
import {
  changeMemberRoleAction,
  inviteMemberAction,
  leaveOrganizationAction,
  removeMemberAction,
  revokeInvitationAction,
  setTwoFactorRequirementAction,
  transferOwnershipAction,
} from "@/app/[orgSlug]/settings/members/actions";
import { leakedKeyResponseInput, twoFactorRequirementInput } from "@/lib/security/input";
import type { ActionResult } from "@/lib/action-result";
import { can, type Permission } from "@/lib/authz";
import { alertSettingsInput, markAlertsReadInput } from "@/lib/alerts/input";
import { emailPreferencesInput } from "@/lib/notifications/preferences";
import { setEmailPreferencesAction } from "@/app/[orgSlug]/settings/notifications/actions";
import { createApiKeyInput, keyPolicyInput, renameApiKeyInput, revokeApiKeyInput, rollApiKeyInput, updateKeyRestrictionsInput } from "@/lib/keys/input";
import { changeMemberRoleInput, invitationInput, inviteMemberInput, leaveOrganizationInput, memberInput } from "@/lib/members/input";
import { changePlanInput, rateLimitInput } from "@/lib/plans/input";
import {
  createSlackChannelInput,
  createWebhookEndpointInput,
  resendWebhookDeliveryInput,
  setWebhookEndpointEnabledInput,
  webhookEndpointInput,
} from "@/lib/webhooks/input";
import {
  addPasskeyAction,
  beginPasskeyProofAction,
  beginPasskeySetupAction,
  beginTotpSetupAction,
  confirmIdentityAction,
  confirmTotpSetupAction,
  removePasskeyAction,
  removeTotpAction,
  renewRecoveryCodesAction,
} from "@/app/settings/security/actions";
import { addPasskeyInput, removePasskeyInput } from "@/lib/auth/passkey-input";
import {
  createLogStreamAction,
  deleteLogStreamAction,
  sendLogStreamTestEventAction,
  setLogStreamPausedAction,
} from "@/app/[orgSlug]/settings/log-streams/actions";
import { createLogStreamInput, logStreamInput, setLogStreamPausedInput } from "@/lib/log-streams/input";
import {
  addSsoDomainAction,
  removeSsoConnectionAction,
  removeSsoDomainAction,
  saveSsoConnectionAction,
  setSsoRequirementAction,
  verifySsoDomainAction,
} from "@/app/[orgSlug]/settings/sso/actions";
import { addSsoDomainInput, requireSsoInput, saveSsoConnectionInput, ssoConnectionInput, ssoDomainInput } from "@/lib/sso/input";
import { identityProofInput } from "@/lib/auth/identity-input";
import { beginPasskeySignInAction, secondFactorSignInAction } from "@/app/(auth)/actions";
import { confirmTotpSetupInput, secondFactorProofInput } from "@/lib/auth/two-factor-input";
import { getDb } from "@/db";
import { sql } from "drizzle-orm";
import { rowsOf } from "@/db/rows";
import { addMember, createTeam, createUser, insertKey } from "./helpers/factories";
import { FUZZ_SEED, SchemaArbitraries, fuzzRuns, hostileValue } from "./helpers/fuzz-inputs";
import { CPU_BUDGET_MS, FuzzTally, leastCpuMs, orgFingerprint, withCpuTime } from "./helpers/fuzz-probe";
import { Browser } from "./helpers/next-request";
import { actAs, actAsAwaitingSecondFactor } from "./helpers/session";

// Input bounds and roles for the dashboard: every server action is a public endpoint. Each is called
// directly, as each role, an outsider and a signed-out visitor, with inputs generated from its own
// zod schema and hostile ones. It answers with its typed result (never a throw), within the CPU
// budget; what it refuses changes nothing, and what the role may not do it always refuses.

type Action = (previous: null, form: Record<string, unknown>) => Promise<ActionResult<unknown>>;

const ACTIONS: { name: string; action: Action; input: z.ZodType; permission: Permission }[] = [
  { name: "createApiKeyAction", action: createApiKeyAction, input: createApiKeyInput, permission: "keys.create" },
  { name: "revokeApiKeyAction", action: revokeApiKeyAction, input: revokeApiKeyInput, permission: "keys.revoke" },
  { name: "renameApiKeyAction", action: renameApiKeyAction, input: renameApiKeyInput, permission: "keys.rename" },
  { name: "rollApiKeyAction", action: rollApiKeyAction, input: rollApiKeyInput, permission: "keys.roll" },
  { name: "updateKeyRestrictionsAction", action: updateKeyRestrictionsAction, input: updateKeyRestrictionsInput, permission: "keys.restrict" },
  { name: "changePlanAction", action: changePlanAction, input: changePlanInput, permission: "plan.manage" },
  { name: "setRateLimitAction", action: setRateLimitAction, input: rateLimitInput, permission: "plan.manage" },
  { name: "setKeyPolicyAction", action: setKeyPolicyAction, input: keyPolicyInput, permission: "keys.policy" },
  { name: "setAlertSettingsAction", action: setAlertSettingsAction, input: alertSettingsInput, permission: "notifications.manage" },
  { name: "markAlertsReadAction", action: markAlertsReadAction, input: markAlertsReadInput, permission: "alerts.view" },
  { name: "setEmailPreferencesAction", action: setEmailPreferencesAction, input: emailPreferencesInput, permission: "alerts.view" },
  { name: "createWebhookEndpointAction", action: createWebhookEndpointAction, input: createWebhookEndpointInput, permission: "notifications.manage" },
  { name: "createSlackChannelAction", action: createSlackChannelAction, input: createSlackChannelInput, permission: "notifications.manage" },
  {
    name: "setWebhookEndpointEnabledAction",
    action: setWebhookEndpointEnabledAction,
    input: setWebhookEndpointEnabledInput,
    permission: "notifications.manage",
  },
  { name: "rotateWebhookSecretAction", action: rotateWebhookSecretAction, input: webhookEndpointInput, permission: "notifications.manage" },
  { name: "deleteWebhookEndpointAction", action: deleteWebhookEndpointAction, input: webhookEndpointInput, permission: "notifications.manage" },
  { name: "sendTestWebhookAction", action: sendTestWebhookAction, input: webhookEndpointInput, permission: "notifications.manage" },
  { name: "resendWebhookDeliveryAction", action: resendWebhookDeliveryAction, input: resendWebhookDeliveryInput, permission: "notifications.manage" },
  { name: "createLogStreamAction", action: createLogStreamAction, input: createLogStreamInput, permission: "log_streams.manage" },
  { name: "setLogStreamPausedAction", action: setLogStreamPausedAction, input: setLogStreamPausedInput, permission: "log_streams.manage" },
  { name: "deleteLogStreamAction", action: deleteLogStreamAction, input: logStreamInput, permission: "log_streams.manage" },
  { name: "sendLogStreamTestEventAction", action: sendLogStreamTestEventAction, input: logStreamInput, permission: "log_streams.manage" },
  { name: "saveSsoConnectionAction", action: saveSsoConnectionAction, input: saveSsoConnectionInput, permission: "sso.manage" },
  { name: "removeSsoConnectionAction", action: removeSsoConnectionAction, input: ssoConnectionInput, permission: "sso.manage" },
  { name: "addSsoDomainAction", action: addSsoDomainAction, input: addSsoDomainInput, permission: "sso.manage" },
  { name: "verifySsoDomainAction", action: verifySsoDomainAction, input: ssoDomainInput, permission: "sso.manage" },
  { name: "removeSsoDomainAction", action: removeSsoDomainAction, input: ssoDomainInput, permission: "sso.manage" },
  { name: "setSsoRequirementAction", action: setSsoRequirementAction, input: requireSsoInput, permission: "sso.manage" },
  { name: "setTwoFactorRequirementAction", action: setTwoFactorRequirementAction, input: twoFactorRequirementInput, permission: "security.manage" },
  { name: "setLeakedKeyResponseAction", action: setLeakedKeyResponseAction, input: leakedKeyResponseInput, permission: "security.manage" },
  // Last: these change who holds which role, which the checks above take as fixed.
  { name: "inviteMemberAction", action: inviteMemberAction, input: inviteMemberInput, permission: "members.manage" },
  { name: "revokeInvitationAction", action: revokeInvitationAction, input: invitationInput, permission: "members.manage" },
  { name: "changeMemberRoleAction", action: changeMemberRoleAction, input: changeMemberRoleInput, permission: "members.manage" },
  { name: "removeMemberAction", action: removeMemberAction, input: memberInput, permission: "members.manage" },
  { name: "transferOwnershipAction", action: transferOwnershipAction, input: memberInput, permission: "members.manage_admins" },
  { name: "leaveOrganizationAction", action: leaveOrganizationAction, input: leaveOrganizationInput, permission: "members.leave" },
];

const ACTORS = ["owner", "admin", "member", "guest", "outsider", "signed out"] as const;
type Actor = (typeof ACTORS)[number];

const RUNS_PER_ACTION = fuzzRuns(250);
const tally = new FuzzTally();
let team: Awaited<ReturnType<typeof createTeam>>;
let other: Awaited<ReturnType<typeof createTeam>>;
let outsider: { id: string };
const keyIds: string[] = [];
/** People the member actions may act on: never the actors, whose roles the checks take as fixed. */
const targetIds: string[] = [];

beforeAll(async () => {
  team = await createTeam("enterprise");
  other = await createTeam("pro");
  outsider = await createUser("Member of no organization");
  for (const name of ["Production", "Staging", "Reporting"]) keyIds.push((await insertKey(team.org.id, { name })).id);
  keyIds.push((await insertKey(other.org.id, { name: "Other org's key" })).id);
  for (const role of ["admin", "member", "guest"] as const) targetIds.push((await addMember(team.org.id, role, `Fuzz target ${role}`)).id);
  targetIds.push(other.member.id);
});

afterAll(() => {
  console.log(tally.summary("Fuzz of the server actions"));
});

function userOf(actor: Actor): string | null {
  if (actor === "signed out") return null;
  if (actor === "outsider") return outsider.id;
  return team.byRole[actor].id;
}

/** A form for the action: its schema's fields, with the ids a real form would send among them. */
function formFor(input: z.ZodType): fc.Arbitrary<Record<string, unknown>> {
  const schema = z.toJSONSchema(input, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;
  const generated = new SchemaArbitraries({}).value(schema) as fc.Arbitrary<Record<string, unknown>>;
  const orgId = fc.oneof(
    { arbitrary: fc.constant(team.org.id), weight: 6 },
    { arbitrary: fc.constant(other.org.id), weight: 1 },
    { arbitrary: hostileValue, weight: 1 },
  );
  const keyId = fc.oneof({ arbitrary: fc.constantFrom(...keyIds), weight: 4 }, { arbitrary: hostileValue, weight: 1 });
  const userId = fc.oneof({ arbitrary: fc.constantFrom(...targetIds), weight: 4 }, { arbitrary: hostileValue, weight: 1 });
  const asText = fc.boolean();
  return fc.tuple(generated, orgId, keyId, userId, asText).map(([fields, org, key, user, text]) => {
    const form: Record<string, unknown> = fields !== null && typeof fields === "object" && !Array.isArray(fields) ? { ...fields } : {};
    form.orgId = org;
    if ("keyId" in form) form.keyId = key;
    if ("userId" in form) form.userId = user;
    // A browser's form posts strings; a hand-made call to the action endpoint can send any value.
    return text ? Object.fromEntries(Object.entries(form).map(([name, value]) => [name, typeof value === "string" ? value : JSON.stringify(value)])) : form;
  });
}

function isTypedResult(result: unknown): boolean {
  const parsed = z
    .union([
      z.strictObject({ ok: z.literal(true), data: z.unknown() }),
      z.strictObject({ ok: z.literal(false), error: z.string().min(1), fieldErrors: z.record(z.string(), z.array(z.string())).optional() }),
    ])
    .safeParse(result);
  return parsed.success;
}

/**
 * One call of an action as a caller would make it: its answer must be the typed result, within
 * the CPU budget (the least of a few tries, as a loaded machine adds noise). `where` names the case.
 */
async function probe(name: string, actor: string, form: Record<string, unknown>, call: () => Promise<ActionResult<unknown>>) {
  const attempt = () => withCpuTime(call);
  const { result, cpuMs: firstCpuMs } = await attempt();
  const where = `${name} as ${actor} with ${JSON.stringify(form).slice(0, 300)} → ${JSON.stringify(result).slice(0, 300)}`;
  expect(isTypedResult(result), where).toBe(true);
  const cpuMs = await leastCpuMs(firstCpuMs, attempt);
  tally.add(result.ok ? "ok" : "refused", cpuMs, `${name} as ${actor}`);
  expect(cpuMs, where).toBeLessThan(CPU_BUDGET_MS);
  return { result, where };
}

describe("every server action, called directly with generated input", () => {
  for (const [index, { name, action, input, permission }] of ACTIONS.entries()) {
    it(`${name}: answers every role with its typed result within ${CPU_BUDGET_MS} ms of CPU; a refusal changes nothing; only roles with ${permission} succeed`, async () => {
      let state = `${await orgFingerprint(team.org.id)}/${await orgFingerprint(other.org.id)}`;
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...ACTORS), formFor(input), async (actor, form) => {
          actAs(userOf(actor));
          const { result, where } = await probe(name, actor, form, () => action(null, form));
          const mayAct = actor !== "signed out" && actor !== "outsider" && can(actor, permission);
          if (result.ok) expect(mayAct && form.orgId === team.org.id, `${where}: succeeded for a role or organization it must refuse`).toBe(true);
          const after = `${await orgFingerprint(team.org.id)}/${await orgFingerprint(other.org.id)}`;
          if (!result.ok) expect(after, `${where}: a refused action changed data`).toBe(state);
          state = after;
        }),
        { numRuns: RUNS_PER_ACTION, seed: FUZZ_SEED + 100 + index, endOnFailure: true },
      );
    }, 300_000);
  }
});

// The person's own account actions take no organization and no role: any signed-in
// person may change their own, a signed-out visitor nothing, and a sign-in that waits for its
// second factor only that step. A refusal changes none of the person's factors or history.
const ACCOUNT_ACTIONS: { name: string; action: Action; input: z.ZodType; as: "signed in" | "second step"; withFactor: boolean }[] = [
  { name: "beginTotpSetupAction", action: beginTotpSetupAction, input: z.object({}), as: "signed in", withFactor: false },
  { name: "confirmTotpSetupAction", action: confirmTotpSetupAction, input: confirmTotpSetupInput, as: "signed in", withFactor: false },
  { name: "removeTotpAction", action: removeTotpAction, input: secondFactorProofInput, as: "signed in", withFactor: true },
  { name: "renewRecoveryCodesAction", action: renewRecoveryCodesAction, input: z.object({}), as: "signed in", withFactor: true },
  { name: "confirmIdentityAction", action: confirmIdentityAction, input: identityProofInput, as: "signed in", withFactor: true },
  { name: "beginPasskeySetupAction", action: beginPasskeySetupAction, input: z.object({}), as: "signed in", withFactor: false },
  { name: "addPasskeyAction", action: addPasskeyAction, input: addPasskeyInput, as: "signed in", withFactor: false },
  { name: "beginPasskeyProofAction", action: beginPasskeyProofAction, input: z.object({}), as: "signed in", withFactor: true },
  { name: "removePasskeyAction", action: removePasskeyAction, input: removePasskeyInput, as: "signed in", withFactor: true },
  { name: "beginPasskeySignInAction", action: beginPasskeySignInAction, input: z.object({}), as: "second step", withFactor: true },
  {
    name: "secondFactorSignInAction",
    action: secondFactorSignInAction,
    input: secondFactorProofInput.and(z.object({ callbackUrl: z.string().optional() })),
    as: "second step",
    withFactor: true,
  },
];
const ACCOUNT_ACTORS = ["signed in", "second step", "signed out"] as const;

/** Everything of a person's sign-in that an account action may change, with their history entries. */
async function accountFingerprint(userId: string): Promise<string> {
  const [row] = rowsOf<{ fingerprint: string }>(
    await getDb().execute(sql`select concat_ws(',',
      (select md5(coalesce(string_agg((to_jsonb(t) - 'sealed_secret' - 'created_at')::text, '|' order by t::text), '')) from totp_factors t where user_id = ${userId}),
      (select md5(coalesce(string_agg(to_jsonb(t)::text, '|' order by t::text), '')) from recovery_codes t where user_id = ${userId}),
      (select md5(coalesce(string_agg(to_jsonb(t)::text, '|' order by t::text), '')) from passkeys t where user_id = ${userId}),
      (select count(*)::text from activity_log where actor_user_id = ${userId})) as fingerprint`),
  );
  return row!.fingerprint;
}

// Passkey ceremonies read the request's origin (lib/auth/passkeys.ts): account actions run as requests of a browser.
vi.mock("next/headers", async () => (await import("./helpers/next-request")).nextHeadersModule);
const browser = new Browser();

describe("every account action, called directly with generated input", () => {
  for (const [index, { name, action, input, as, withFactor }] of ACCOUNT_ACTIONS.entries()) {
    it(`${name}: answers with its typed result within ${CPU_BUDGET_MS} ms of CPU; succeeds only ${as}; a refusal changes nothing`, async () => {
      // A person of the team with a factor set up by the actions themselves, so removing and renewing have something to act on.
      const person = await addMember(team.org.id, "member", `Fuzz account ${name}`);
      if (withFactor) {
        actAs(person.id);
        const begun = await beginTotpSetupAction(null, {});
        if (!begun.ok) throw new Error(begun.error);
        const confirmed = await confirmTotpSetupAction(null, { code: await generate({ secret: begun.data.secret }) });
        if (!confirmed.ok) throw new Error(confirmed.error);
      }
      const generated = new SchemaArbitraries({}).value(
        z.toJSONSchema(input, { io: "input", unrepresentable: "any" }) as Record<string, unknown>,
      ) as fc.Arbitrary<unknown>;
      const formOf = fc.oneof(
        generated.map((fields) => (fields !== null && typeof fields === "object" && !Array.isArray(fields) ? (fields as Record<string, unknown>) : {})),
        fc.dictionary(fc.string(), hostileValue),
      );
      let state = await accountFingerprint(person.id);
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...ACCOUNT_ACTORS), formOf, async (actor, form) => {
          if (actor === "signed out") actAs(null);
          else if (actor === "second step") actAsAwaitingSecondFactor(person.id);
          else actAs(person.id);
          const { result, where } = await probe(name, actor, form, () =>
            browser
              .request(() => action(null, form))
              .catch((error: { digest?: string }) => {
                // The second step signs in by redirecting; anything else thrown is a failure.
                if (error.digest?.startsWith("NEXT_REDIRECT;")) return { ok: true as const, data: "redirected" };
                throw error;
              }),
          );
          if (result.ok) expect(actor, `${where}: succeeded for a caller it must refuse`).toBe(as);
          const after = await accountFingerprint(person.id);
          if (!result.ok) expect(after, `${where}: a refused action changed data`).toBe(state);
          state = after;
        }),
        { numRuns: RUNS_PER_ACTION, seed: FUZZ_SEED + 200 + index, endOnFailure: true },
      );
    }, 300_000);
  }
});
