import "server-only";
import { getDb, type Tx } from "@/db";
import { newId } from "@/core/ids";
import type { SsoRole } from "@/core/sso";
import { insertActivity } from "@/db/queries/activity";
import { insertMembership } from "@/db/queries/members";
import { findMembership } from "@/db/queries/organizations";
import { findSsoIdentity, hasVerifiedDomain, insertSsoIdentity, touchSsoIdentity } from "@/db/queries/sso-sign-in";
import { EmailTakenError, findUserByEmail, getUser, insertUser } from "@/db/queries/users";
import type { Client } from "@/lib/auth/client";
import { SsoRefusal } from "./refusal";
import { emailDomain } from "./sign-in-start";

/**
 * Who signed in through an organization's provider (docs/features/sso.md#who-signs-in). The
 * provider's subject names the person once known; the first time, their email does, and only an
 * email of a domain this same organization verified, so one organization's provider can never
 * speak for another's people. A person met for the first time joins with the connection's role
 * (just-in-time), with no password: they sign in through the provider.
 */

export interface ProviderIdentity {
  orgId: string;
  issuer: string;
  subject: string;
  email: string | null;
  emailVerified: boolean;
  name: string | null;
  defaultRole: SsoRole;
}

const NAME_MAX = 100;

function displayName(identity: ProviderIdentity, email: string): string {
  return (identity.name?.trim() || email.slice(0, email.indexOf("@"))).slice(0, NAME_MAX);
}

/** The person's account: theirs by email, or a new one made now. Of two first sign-ins at once, the second finds the first's. */
async function accountFor(tx: Tx, identity: ProviderIdentity, email: string): Promise<{ id: string; name: string }> {
  const existing = await findUserByEmail(tx, email);
  if (existing) return existing;
  const person = { id: newId("usr"), name: displayName(identity, email), email };
  try {
    await tx.transaction((inner) => insertUser(inner, { ...person, passwordHash: null }));
    return person;
  } catch (error) {
    if (!(error instanceof EmailTakenError)) throw error;
    const raced = await findUserByEmail(tx, email);
    if (!raced) throw error;
    return raced;
  }
}

/** Makes the person a member with the connection's role when they are not one, with its history entry. */
async function joinIfNew(tx: Tx, identity: ProviderIdentity, person: { id: string; name: string }, email: string, client: Client): Promise<void> {
  if (await findMembership(person.id, identity.orgId, tx)) return;
  await insertMembership(tx, identity.orgId, person.id, identity.defaultRole);
  await insertActivity(tx, identity.orgId, { kind: "user", userId: person.id, ...client }, [
    {
      action: "member.joined",
      target: { type: "member", id: person.id, name: person.name },
      after: { email, role: identity.defaultRole, via: "single sign-on" },
    },
  ]);
}

/**
 * The person the provider's subject stands for: known already, or now linked to the account of
 * their email (made if need be). Of two first sign-ins of one subject at once, the second waits on
 * the first's identity row and then finds it.
 */
async function personOf(tx: Tx, identity: ProviderIdentity, email: string): Promise<{ id: string; name: string }> {
  const known = await findSsoIdentity(tx, identity.orgId, identity.issuer, identity.subject);
  if (!known) {
    const account = await accountFor(tx, identity, email);
    await insertSsoIdentity(tx, { orgId: identity.orgId, issuer: identity.issuer, subject: identity.subject, userId: account.id });
  }
  const userId = known ?? (await findSsoIdentity(tx, identity.orgId, identity.issuer, identity.subject));
  const person = userId ? await getUser(userId, tx) : null;
  // The account already has another subject of this provider's: the provider must say which it is.
  if (!person || (!known && person.email !== email))
    throw new SsoRefusal("identity", `${email} is linked to another account at the identity provider. Ask an owner of the organization.`);
  if (known) await touchSsoIdentity(tx, identity.orgId, identity.issuer, identity.subject);
  return person;
}

/** The person's id, a member of the organization from now on; an SsoRefusal when the provider's word is not enough. */
export async function personForIdentity(identity: ProviderIdentity, client: Client): Promise<string> {
  const { email } = identity;
  if (!email) throw new SsoRefusal("identity", "The identity provider did not give your email address. Ask your administrator to release the email claim.");
  if (!identity.emailVerified) throw new SsoRefusal("identity", `The identity provider has not verified ${email}.`);
  return getDb().transaction(async (tx) => {
    if (!(await hasVerifiedDomain(tx, identity.orgId, emailDomain(email))))
      throw new SsoRefusal("identity", `${email} is not at a domain this organization has verified, so its provider cannot sign it in.`);
    const person = await personOf(tx, identity, email);
    await joinIfNew(tx, identity, person, email, client);
    return person.id;
  });
}
