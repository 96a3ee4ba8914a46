import "server-only";
import { and, asc, count, eq, isNotNull, isNull, ne, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import type { SsoRole } from "@/core/sso";
import { ssoConnections, ssoDomains, users } from "@/db/schema";

/**
 * The single sign-on page's reads and changes (docs/features/sso.md#the-page): the connection as
 * people see it, never its sealed client secret, only its hint; the organization's domains.
 */

const SHOWN_CONNECTION = {
  id: ssoConnections.id,
  issuer: ssoConnections.issuer,
  clientId: ssoConnections.clientId,
  secretHint: ssoConnections.secretHint,
  defaultRole: ssoConnections.defaultRole,
  requireSso: ssoConnections.requireSso,
  createdAt: ssoConnections.createdAt,
  updatedAt: ssoConnections.updatedAt,
};

export interface SsoConnectionDto {
  id: string;
  issuer: string;
  clientId: string;
  secretHint: string;
  defaultRole: SsoRole;
  requireSso: boolean;
  createdAt: Date;
  updatedAt: Date;
  createdByName: string | null;
}

/** The organization's connection, or null when it has none. */
export async function getSsoConnection(db: DbOrTx, orgId: string): Promise<SsoConnectionDto | null> {
  const [row] = await db
    .select({ ...SHOWN_CONNECTION, createdByName: users.name })
    .from(ssoConnections)
    .leftJoin(users, eq(users.id, ssoConnections.createdBy))
    .where(eq(ssoConnections.orgId, orgId));
  // The database keeps owner out (sso_connections_default_role_not_owner).
  return row ? { ...row, defaultRole: row.defaultRole as SsoRole } : null;
}

/** The connection as it is before a change, locked until the change commits. */
export async function lockSsoConnection(tx: DbOrTx, orgId: string) {
  const [row] = await tx.select(SHOWN_CONNECTION).from(ssoConnections).where(eq(ssoConnections.orgId, orgId)).for("update");
  return row ?? null;
}

export interface StoredSsoConnection {
  id: string;
  issuer: string;
  clientId: string;
  sealedClientSecret: string;
  secretHint: string;
  defaultRole: SsoRole;
  createdBy: string | null;
}

/** Saves the organization's one connection: a new one, or new settings for the one it has, which keeps its id and who created it. */
export async function upsertSsoConnection(tx: DbOrTx, orgId: string, connection: StoredSsoConnection): Promise<{ id: string }> {
  const [row] = await tx
    .insert(ssoConnections)
    .values({ orgId, ...connection })
    .onConflictDoUpdate({
      target: ssoConnections.orgId,
      set: {
        issuer: connection.issuer,
        clientId: connection.clientId,
        sealedClientSecret: connection.sealedClientSecret,
        secretHint: connection.secretHint,
        defaultRole: connection.defaultRole,
        updatedAt: sql`now()`,
      },
    })
    .returning({ id: ssoConnections.id });
  return row!;
}

/** Deletes the connection with its secret; what it was, or null when there was none. */
export async function deleteSsoConnection(tx: DbOrTx, orgId: string) {
  const [row] = await tx.delete(ssoConnections).where(eq(ssoConnections.orgId, orgId)).returning(SHOWN_CONNECTION);
  return row ?? null;
}

const SHOWN_DOMAIN = {
  id: ssoDomains.id,
  domain: ssoDomains.domain,
  verificationToken: ssoDomains.verificationToken,
  verifiedAt: ssoDomains.verifiedAt,
  createdAt: ssoDomains.createdAt,
};

/** The organization's domains in the order they were added. */
export async function listSsoDomains(db: DbOrTx, orgId: string) {
  return db.select(SHOWN_DOMAIN).from(ssoDomains).where(eq(ssoDomains.orgId, orgId)).orderBy(asc(ssoDomains.createdAt), asc(ssoDomains.id));
}

/** One domain of the organization, or null when it has none by that id. */
export async function findSsoDomain(db: DbOrTx, orgId: string, id: string) {
  const [row] = await db
    .select(SHOWN_DOMAIN)
    .from(ssoDomains)
    .where(and(eq(ssoDomains.orgId, orgId), eq(ssoDomains.id, id)));
  return row ?? null;
}

export async function countSsoDomains(tx: DbOrTx, orgId: string): Promise<number> {
  const [row] = await tx.select({ n: count() }).from(ssoDomains).where(eq(ssoDomains.orgId, orgId));
  return row?.n ?? 0;
}

export async function hasSsoDomain(tx: DbOrTx, orgId: string, domain: string): Promise<boolean> {
  const [row] = await tx
    .select({ id: ssoDomains.id })
    .from(ssoDomains)
    .where(and(eq(ssoDomains.orgId, orgId), eq(ssoDomains.domain, domain)));
  return row !== undefined;
}

/**
 * Whether another organization has verified `domain`. The one read across organizations, as the
 * rule it serves is one (a domain is verified by one organization); it gives back a yes or no,
 * never which organization.
 */
export async function verifiedByAnotherOrganization(tx: DbOrTx, orgId: string, domain: string): Promise<boolean> {
  const [row] = await tx
    .select({ id: ssoDomains.id })
    .from(ssoDomains)
    .where(and(eq(ssoDomains.domain, domain), isNotNull(ssoDomains.verifiedAt), ne(ssoDomains.orgId, orgId)));
  return row !== undefined;
}

export async function insertSsoDomain(tx: DbOrTx, orgId: string, domain: { id: string; domain: string; verificationToken: string }): Promise<void> {
  await tx.insert(ssoDomains).values({ orgId, ...domain });
}

/** Another organization verified the domain first: met at sso_domains_verified_once_idx. */
export class DomainTakenError extends Error {
  constructor() {
    super("Another organization has verified this domain.");
    this.name = "DomainTakenError";
  }
}

/**
 * Marks a pending domain verified; null when it is not pending any more (removed, or verified
 * meanwhile). The unique index decides between organizations, not a look beforehand: of two
 * verifying one domain at once, the second waits for the first and meets it.
 */
export async function markSsoDomainVerified(tx: DbOrTx, orgId: string, id: string): Promise<{ verifiedAt: Date } | null> {
  try {
    const [row] = await tx
      .update(ssoDomains)
      .set({ verifiedAt: sql`now()` })
      .where(and(eq(ssoDomains.orgId, orgId), eq(ssoDomains.id, id), isNull(ssoDomains.verifiedAt)))
      .returning({ verifiedAt: ssoDomains.verifiedAt });
    return row?.verifiedAt ? { verifiedAt: row.verifiedAt } : null;
  } catch (error) {
    const cause = (error as { cause?: { code?: string; constraint_name?: string; constraint?: string } }).cause;
    if (cause?.code === "23505" && (cause.constraint_name ?? cause.constraint) === "sso_domains_verified_once_idx") throw new DomainTakenError();
    throw error;
  }
}

/** Deletes a domain of the organization; what it was, or null when it has none by that id. */
export async function deleteSsoDomain(tx: DbOrTx, orgId: string, id: string) {
  const [row] = await tx
    .delete(ssoDomains)
    .where(and(eq(ssoDomains.orgId, orgId), eq(ssoDomains.id, id)))
    .returning(SHOWN_DOMAIN);
  return row ?? null;
}

export async function setSsoRequired(tx: DbOrTx, orgId: string, required: boolean): Promise<void> {
  await tx
    .update(ssoConnections)
    .set({ requireSso: required, updatedAt: sql`now()` })
    .where(eq(ssoConnections.orgId, orgId));
}

export async function verifiedDomainCount(tx: DbOrTx, orgId: string): Promise<number> {
  const [row] = await tx
    .select({ n: count() })
    .from(ssoDomains)
    .where(and(eq(ssoDomains.orgId, orgId), isNotNull(ssoDomains.verifiedAt)));
  return row?.n ?? 0;
}
