import "server-only";
import { notFound } from "next/navigation";
import { cache } from "react";
import { getApiKey } from "@/db/queries/api-keys";
import { looksLikeId } from "@/core/ids";
import { requireOrgAccess } from "@/lib/org-access";

/**
 * The key of the URL within the viewer's organization, read once per request by the layout and
 * the page. Another organization's key id is indistinguishable from one that does not exist.
 */
export const findKey = cache(async (orgSlug: string, keyId: string) => {
  const { membership } = await requireOrgAccess(orgSlug, "keys.view");
  const apiKey = looksLikeId("key", keyId) ? await getApiKey(membership.orgId, keyId) : null;
  if (!apiKey) notFound();
  return { membership, apiKey };
});
