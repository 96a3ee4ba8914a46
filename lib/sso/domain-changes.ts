import "server-only";
import type { z } from "zod";
import { randomBase62 } from "@/core/base62";
import { newId } from "@/core/ids";
import { SSO_DOMAINS_MAX } from "@/core/sso";
import { lockOrganization } from "@/db/queries/organizations";
import {
  countSsoDomains,
  deleteSsoDomain,
  DomainTakenError,
  findSsoDomain,
  hasSsoDomain,
  insertSsoDomain,
  markSsoDomainVerified,
  verifiedByAnotherOrganization,
} from "@/db/queries/sso-settings";
import type { ActionContext, Change } from "@/lib/action";
import { UserFacingError } from "@/lib/errors";
import { verificationRecordName, verificationRecordValue } from "./domain-name";
import type { addSsoDomainInput, ssoDomainInput } from "./input";
import { lookUpTxt, type TxtAnswer } from "./txt-lookup";

/**
 * The domains' changes as the action wrapper runs them (docs/features/sso.md#domains): added with a
 * token, verified by a DNS TXT record holding it, removed; each with its entry in the history.
 */

const NOT_FOUND = "This domain was not found.";
const TAKEN = (domain: string) => `${domain} is verified by another organization. A domain can belong to one organization only.`;

const targetOf = (domain: { id: string; domain: string }) => ({ type: "sso_domain" as const, id: domain.id, name: domain.domain });

/** A new pending domain, under the organization's row lock so that concurrent additions respect the maximum. */
export async function addDomain({ domain }: z.output<typeof addSsoDomainInput>, ctx: ActionContext): Promise<Change<{ id: string; domain: string }>> {
  await lockOrganization(ctx.tx, ctx.orgId);
  if (await hasSsoDomain(ctx.tx, ctx.orgId, domain)) throw new UserFacingError("Check the highlighted fields.", { domain: [`${domain} is added already.`] });
  if ((await countSsoDomains(ctx.tx, ctx.orgId)) >= SSO_DOMAINS_MAX)
    throw new UserFacingError(`An organization can have at most ${SSO_DOMAINS_MAX} domains. Remove one you no longer use first.`);
  if (await verifiedByAnotherOrganization(ctx.tx, ctx.orgId, domain)) throw new UserFacingError("Check the highlighted fields.", { domain: [TAKEN(domain)] });
  const id = newId("dom");
  await insertSsoDomain(ctx.tx, ctx.orgId, { id, domain, verificationToken: randomBase62(32) });
  return { data: { id, domain }, activity: { action: "sso_domain.added", target: targetOf({ id, domain }), after: { domain, verified: false } } };
}

/** Why the TXT records found do not prove the domain, in terms of what was found; null when one holds the token. */
function lookupProblem(answer: TxtAnswer, name: string, expected: string): string | null {
  switch (answer.kind) {
    case "none":
      return `No TXT record was found at ${name}. Add the record below; a new record can take a few minutes to be seen.`;
    case "failed":
      return `The DNS lookup of ${name} failed (${answer.code}). Try again in a moment.`;
    case "found": {
      if (answer.values.includes(expected)) return null;
      const shown = answer.values
        .slice(0, 3)
        .map((value) => `“${value.length > 80 ? `${value.slice(0, 80)}…` : value}”`)
        .join(", ");
      const more = answer.values.length > 3 ? ` and ${answer.values.length - 3} more` : "";
      return `The TXT records at ${name} are ${shown}${more}, none of them ${expected}. Check the record's value.`;
    }
  }
}

/**
 * Verifies a pending domain by its TXT record. The lookup runs before any change, outside any
 * lock; the domain's unique index then decides between organizations (db/queries/sso-settings.ts).
 */
export async function verifyDomain({ domainId }: z.output<typeof ssoDomainInput>, ctx: ActionContext): Promise<Change<{ id: string; verifiedAt: Date }>> {
  const domain = await findSsoDomain(ctx.tx, ctx.orgId, domainId);
  if (!domain) throw new UserFacingError(NOT_FOUND);
  if (domain.verifiedAt) throw new UserFacingError(`${domain.domain} is verified already.`);
  if (await verifiedByAnotherOrganization(ctx.tx, ctx.orgId, domain.domain)) throw new UserFacingError(TAKEN(domain.domain));
  const name = verificationRecordName(domain.domain);
  const problem = lookupProblem(await lookUpTxt(name), name, verificationRecordValue(domain.verificationToken));
  if (problem) throw new UserFacingError(problem);
  const verified = await markSsoDomainVerified(ctx.tx, ctx.orgId, domain.id).catch((error: unknown) => {
    throw error instanceof DomainTakenError ? new UserFacingError(TAKEN(domain.domain), undefined, { cause: error }) : error;
  });
  if (!verified) throw new UserFacingError(`${domain.domain} was verified or removed meanwhile. Reload the page.`);
  return {
    data: { id: domain.id, verifiedAt: verified.verifiedAt },
    activity: { action: "sso_domain.verified", target: targetOf(domain), before: { verified: false }, after: { verified: true } },
  };
}

export async function removeDomain({ domainId }: z.output<typeof ssoDomainInput>, ctx: ActionContext): Promise<Change<{ id: string; domain: string }>> {
  const removed = await deleteSsoDomain(ctx.tx, ctx.orgId, domainId);
  if (!removed) throw new UserFacingError(NOT_FOUND);
  return {
    data: { id: removed.id, domain: removed.domain },
    activity: { action: "sso_domain.removed", target: targetOf(removed), before: { domain: removed.domain, verified: removed.verifiedAt !== null } },
  };
}
