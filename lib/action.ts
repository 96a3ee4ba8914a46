import "server-only";
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { getDb, type Tx } from "@/db";
import { insertActivity } from "@/db/queries/activity";
import { findMembership, listMemberships } from "@/db/queries/organizations";
import { getUser } from "@/db/queries/users";
import type { Role } from "@/core/enums";
import type { ActionResult } from "@/lib/action-result";
import type { ActivityChange } from "@/core/activity";
import { can, deniedMessage, membershipRefusal, type Permission } from "@/lib/authz";
import { UserFacingError } from "@/lib/errors";
import { currentClient, currentSession, sessionAwaitingSecondFactor, type SignedInSession } from "@/lib/session";
import type { Client } from "@/lib/auth/client";
import { requireSecondFactor, type SecondFactorProof } from "@/lib/auth/second-factor";
import { inSudoMode, SUDO_REQUIRED_MESSAGE } from "@/lib/auth/sudo";

export type { ActionResult };

export interface ActionContext {
  userId: string;
  orgId: string;
  role: Role;
  tx: Tx;
}

/**
 * What a mutation returns: its result for the caller and the history entries of its change
 * (docs/features/activity-history.md), at least one. The wrapper writes them in the change's transaction, so no action can
 * change something without saying what it changed. The one exception says so by name: a change
 * of the acting person's own view (which alerts they have read) changes nothing of the
 * organization's, and the history is the organization's.
 *
 * `afterCommit` is work outside the database that must wait for the commit (mailing a link that
 * has to work when it arrives) and must not hold the transaction and its locks open meanwhile;
 * what it gives is the action's result in place of `data`.
 */
export type Change<T, R = T> = ({ data: T; activity: ActivityChange | readonly [ActivityChange, ...ActivityChange[]] } | { data: T; personal: true }) & {
  afterCommit?: () => Promise<R>;
};

/**
 * A second permission an action needs for part of its change (a budget set while creating a key):
 * refused in the words of the role table, inside the transaction, so nothing of the change stays.
 */
export function requirePermission(ctx: ActionContext, permission: Permission): void {
  if (!can(ctx.role, permission)) throw new UserFacingError(deniedMessage(permission));
}

function formToObject(form: FormData | Record<string, unknown>): Record<string, unknown> {
  return form instanceof FormData ? Object.fromEntries(form) : form;
}

function fieldErrorsOf(error: z.ZodError): Record<string, string[]> {
  return z.flattenError(error).fieldErrors as Record<string, string[]>;
}

/** A sensitive change asked for outside sudo mode: refused until the person confirms who they are (docs/security.md#sudo-mode). */
const SUDO_REFUSAL = { ok: false, error: SUDO_REQUIRED_MESSAGE, reauthenticate: true } as const;

const SESSION_ENDED = { ok: false, error: "Your session has ended. Sign in again." } as const;

/** Thrown by a wrapper's checks when the change needs sudo mode; answered as SUDO_REFUSAL. */
class SudoModeRequired extends UserFacingError {
  constructor() {
    super(SUDO_REQUIRED_MESSAGE);
  }
}

/** zod parse → run → typed result: the steps every wrapper ends with. A UserFacingError becomes the refusal it says; anything else is thrown on with its cause. */
async function parseAndRun<S extends z.ZodType, T>(
  input: S,
  form: FormData | Record<string, unknown>,
  run: (data: z.output<S>) => Promise<T>,
): Promise<ActionResult<T>> {
  const parsed = input.safeParse(formToObject(form));
  if (!parsed.success) return { ok: false, error: "Check the highlighted fields.", fieldErrors: fieldErrorsOf(parsed.error) };
  try {
    return { ok: true, data: await run(parsed.data) };
  } catch (error) {
    if (!(error instanceof UserFacingError)) throw error;
    return error instanceof SudoModeRequired
      ? SUDO_REFUSAL
      : { ok: false, error: error.message, ...(error.fieldErrors ? { fieldErrors: error.fieldErrors } : {}) };
  }
}

/** The person's membership of the organization, if it may `permission` (and, for `sudo`, is in sudo mode); otherwise the refusal, thrown. */
async function permittedMembership(session: SignedInSession, orgId: string, permission: Permission, sudo = false) {
  const membership = await findMembership(session.userId, orgId);
  // Another organization's id is indistinguishable from one that does not exist.
  if (!membership) throw new UserFacingError("Organization not found.");
  const refusal = membershipRefusal(membership, session, permission);
  if (refusal) throw new UserFacingError(refusal.message);
  if (sudo && !inSudoMode(session)) throw new SudoModeRequired();
  return membership;
}

/**
 * Every dashboard mutation is built by this: session → zod parse → membership role from the
 * database → permission check → sudo mode for the sensitive changes (`sudo: true`) →
 * transaction with its history entries → revalidate → typed result.
 */
export function orgAction<S extends z.ZodType<{ orgId: string }>, T, R = T>(
  input: S,
  permission: Permission,
  run: (data: z.output<S>, ctx: ActionContext) => Promise<Change<T, R>>,
  options: { revalidate?: string; sudo?: boolean } = {},
) {
  return async (_prev: ActionResult<R> | null, form: FormData | Record<string, unknown>): Promise<ActionResult<R>> => {
    const session = await currentSession();
    if (!session) return SESSION_ENDED;
    return parseAndRun(input, form, async (data) => {
      const { orgId, orgSlug, role } = await permittedMembership(session, data.orgId, permission, options.sudo);
      const client = await currentClient();
      const change = await getDb().transaction(async (tx) => {
        const change = await run(data, { userId: session.userId, orgId, role, tx });
        if ("personal" in change) return change;
        const entries = Array.isArray(change.activity) ? change.activity : [change.activity as ActivityChange];
        await insertActivity(tx, orgId, { kind: "user", userId: session.userId, ip: client.ip, userAgent: client.userAgent }, entries);
        return change;
      });
      // Without afterCommit, R is T (its default).
      const result = change.afterCommit ? await change.afterCommit() : (change.data as unknown as R);
      revalidatePath(options.revalidate ?? `/${orgSlug}`, "layout");
      return result;
    });
  };
}

/** Actions without a session (sign-in, sign-up): zod parse and the same typed result. */
export function publicAction<S extends z.ZodType, T>(input: S, run: (data: z.output<S>) => Promise<T>) {
  return async (_prev: ActionResult<T> | null, form: FormData | Record<string, unknown>): Promise<ActionResult<T>> => parseAndRun(input, form, run);
}

/** A change to the acting person's own account (docs/features/two-factor.md), as the history of each of their organizations records it. */
export interface AccountChange<T> {
  data: T;
  activity: Pick<ActivityChange, "action" | "before" | "after">;
}

/** What an account change runs with: the person, their session, the transaction, and what its check found. */
export interface AccountContext<C = void> {
  userId: string;
  sessionId: string;
  tx: Tx;
  checked: C;
}

function accountActionThat<S extends z.ZodType, T, C = void>(
  input: S,
  run: (data: z.output<S>, ctx: AccountContext<C>) => Promise<AccountChange<T>>,
  { check, sudo = false }: { check?: (data: z.output<S>, session: SignedInSession, client: Client) => Promise<C>; sudo?: boolean },
) {
  return async (_prev: ActionResult<T> | null, form: FormData | Record<string, unknown>): Promise<ActionResult<T>> => {
    const session = await currentSession();
    if (!session) return SESSION_ENDED;
    if (sudo && !inSudoMode(session)) return SUDO_REFUSAL;
    const client = await currentClient();
    const result = await parseAndRun(input, form, async (data) => {
      // Before the transaction: a check counts its attempt in a transaction of its own, which a
      // refusal must not roll back.
      const checked = (await check?.(data, session, client)) as C;
      return getDb().transaction(async (tx) => {
        const change = await run(data, { userId: session.userId, sessionId: session.sessionId, tx, checked });
        const [person, organizations] = await Promise.all([getUser(session.userId, tx), listMemberships(session.userId, tx)]);
        const entry: ActivityChange = { ...change.activity, target: { type: "member", id: session.userId, name: person?.name ?? "" } };
        for (const { orgId } of organizations)
          await insertActivity(tx, orgId, { kind: "user", userId: session.userId, ip: client.ip, userAgent: client.userAgent }, [entry]);
        return change.data;
      });
    });
    if (result.ok) revalidatePath("/", "layout");
    return result;
  };
}

/**
 * Changes to the signed-in person's own account security (docs/security.md#sudo-mode): session → sudo mode when
 * `sudo` → zod parse → transaction with a history entry in every organization they belong to
 * (their admins see who added or removed a second factor) → revalidate → typed result. No
 * organization role is involved: each person manages their own sign-in.
 */
export function accountAction<S extends z.ZodType, T>(
  input: S,
  run: (data: z.output<S>, ctx: AccountContext) => Promise<AccountChange<T>>,
  options: { sudo?: boolean } = {},
) {
  return accountActionThat(input, run, options);
}

/**
 * An account change whose input is checked before its transaction (a passkey's answer to the
 * session's challenge, taken once): what the check finds reaches `run` as `ctx.checked`, and a
 * refusal of the change does not give back what the check used up. Sudo mode, when `sudo`, is
 * asked before the check, so its refusal uses nothing up.
 */
export function accountActionAfterCheck<S extends z.ZodType, C, T>(
  input: S,
  check: (data: z.output<S>, session: SignedInSession) => Promise<C>,
  run: (data: z.output<S>, ctx: AccountContext<C>) => Promise<AccountChange<T>>,
  options: { sudo?: boolean } = {},
) {
  return accountActionThat(input, run, { check, ...options });
}

/** An account change that needs a second factor given again (turning two-factor off): checked, throttled, before anything changes. */
export function accountActionWithSecondFactor<S extends z.ZodType<SecondFactorProof>, T>(
  input: S,
  run: (data: z.output<S>, ctx: AccountContext) => Promise<AccountChange<T>>,
) {
  return accountActionThat(input, run, { check: (proof, session, client) => requireSecondFactor(session, proof, client.ip) });
}

/**
 * The second step of a sign-in (docs/features/two-factor.md): for a session that passed the password and waits for
 * its second factor, the one thing such a session may do. Session → zod parse → run.
 */
export function secondStepAction<S extends z.ZodType, T>(input: S, run: (data: z.output<S>, session: SignedInSession) => Promise<T>) {
  return async (_prev: ActionResult<T> | null, form: FormData | Record<string, unknown>): Promise<ActionResult<T>> => {
    const session = await sessionAwaitingSecondFactor();
    if (!session) return { ok: false, error: "This sign-in has ended. Sign in again with your password." };
    return parseAndRun(input, form, (data) => run(data, session));
  };
}

/** Actions of the signed-in user outside any organization ("sign out everywhere"): session → zod parse → run. */
export function userAction<S extends z.ZodType, T>(input: S, run: (data: z.output<S>, session: SignedInSession) => Promise<T>) {
  return async (_prev: ActionResult<T> | null, form: FormData | Record<string, unknown>): Promise<ActionResult<T>> => {
    const session = await currentSession();
    if (!session) return SESSION_ENDED;
    return parseAndRun(input, form, (data) => run(data, session));
  };
}
