import { getDb } from "@/db";
import { apiKeys, budgetColumns, memberships, organizations, totpFactors, users } from "@/db/schema";
import { sealSecret } from "@/lib/auth/sealed-secret";
import { newTotpSecret } from "@/lib/auth/totp";
import type { KeyAccess, KeyScopes, Mode, Plan, Role } from "@/core/enums";
import type { KeyBudget } from "@/core/key-budget";
import { mintApiKey } from "@/lib/keys/format";
import { newId } from "@/core/ids";

export async function createOrg(plan: Plan = "pro", overrides: { rateLimitPerMinute?: number | null } = {}) {
  const id = newId("org");
  const org = { id, name: `Org ${id.slice(-6)}`, slug: `org-${id.slice(-10).toLowerCase()}`, plan, rateLimitPerMinute: overrides.rateLimitPerMinute ?? null };
  await getDb().insert(organizations).values(org);
  return org;
}

export async function createUser(name = "Test User") {
  const id = newId("usr");
  const user = { id, name, email: `${id.toLowerCase()}@example.test`, passwordHash: "$2b$04$invalidinvalidinvalidinvalidinvalidinvalidinvalidinva" };
  await getDb().insert(users).values(user);
  return { id, name, email: user.email };
}

export async function addMember(orgId: string, role: Role, name = `${role} user`) {
  const user = await createUser(name);
  await getDb().insert(memberships).values({ orgId, userId: user.id, role });
  return user;
}

/** Gives the person a confirmed authenticator app (docs/features/two-factor.md#authenticator-app), written directly; returns its secret for codes. */
export async function giveSecondFactor(userId: string): Promise<string> {
  const secret = newTotpSecret();
  await getDb()
    .insert(totpFactors)
    .values({ userId, sealedSecret: sealSecret(secret), confirmedAt: new Date() });
  return secret;
}

/** An organization with one user per role. */
export async function createTeam(plan: Plan = "pro") {
  const org = await createOrg(plan);
  const owner = await addMember(org.id, "owner");
  const admin = await addMember(org.id, "admin");
  const member = await addMember(org.id, "member");
  const guest = await addMember(org.id, "guest");
  return { org, owner, admin, member, guest, byRole: { owner, admin, member, guest } };
}

/** A key row written directly (bypassing the action), returning its value for API calls. */
export async function insertKey(
  orgId: string,
  options: {
    name?: string;
    revoked?: boolean;
    createdBy?: string;
    expiresAt?: Date;
    createdAt?: Date;
    access?: KeyAccess;
    scopes?: KeyScopes;
    ipAllowlist?: string[];
    budget?: KeyBudget;
    mode?: Mode;
  } = {},
) {
  const mode = options.mode ?? "live";
  const { value, hash, hint } = mintApiKey(mode);
  const id = newId("key");
  await getDb()
    .insert(apiKeys)
    .values({
      id,
      orgId,
      name: options.name ?? "Integration",
      mode,
      keyHash: hash,
      hint,
      createdBy: options.createdBy ?? null,
      revokedAt: options.revoked ? new Date() : null,
      expiresAt: options.expiresAt ?? null,
      access: options.access ?? "full",
      scopes: options.scopes ?? {},
      ipAllowlist: options.ipAllowlist ?? [],
      ...budgetColumns(options.budget ?? null),
      ...(options.createdAt ? { createdAt: options.createdAt } : {}),
    });
  return { id, value, hint, mode };
}

export function form(values: Record<string, string | number>): FormData {
  const data = new FormData();
  for (const [key, value] of Object.entries(values)) data.set(key, String(value));
  return data;
}
