import "server-only";
import { notFound } from "next/navigation";
import { cache } from "react";
import { findRequest, type RequestDetailsDto } from "@/db/queries/request-details";
import { keyEndings, type KeyEndingDto } from "@/db/queries/activity";
import { can } from "@/lib/authz";
import { orgAccess } from "@/lib/org-access";
import { redirectToSignIn } from "@/lib/sign-in-redirect";

export type RequestView =
  | { kind: "refused"; status: 401 | 403 | 404; message: string }
  | { kind: "not-found"; requestId: string }
  | { kind: "ok"; request: RequestDetailsDto; ending: KeyEndingDto | null };

/**
 * One request of the organization by its id (docs/features/audit-log.md#request-details), for its details page: an id of another
 * organization's request finds nothing, exactly like an id of no request.
 */
export async function loadRequest(slug: string, requestId: string): Promise<RequestView> {
  const access = await orgAccess(slug, "requests.inspect");
  if (!access.ok) return { kind: "refused", status: access.status, message: access.message };
  const { orgId, role } = access.membership;
  const request = await findRequest(orgId, requestId);
  if (!request) return { kind: "not-found", requestId };
  // A request refused because its key had ended links to the entry that ended it (docs/features/activity-history.md).
  const ended = request.status === 401 && can(role, "activity.view") ? (await keyEndings(orgId, [request.keyId])).get(request.keyId) : undefined;
  const ending = ended && ended.at <= request.createdAt ? ended : null;
  return { kind: "ok", request, ending };
}

/**
 * The request of the URL for its layout and page, read once per request: a 404 (the not-found
 * page) for an id this organization has no request of, as for a role that may not see it.
 */
export const requireRequest = cache(async (slug: string, requestId: string): Promise<Extract<RequestView, { kind: "ok" }>> => {
  let id: string;
  try {
    id = decodeURIComponent(requestId);
  } catch {
    notFound();
  }
  const view = await loadRequest(slug, id);
  if (view.kind === "ok") return view;
  if (view.kind === "refused" && view.status === 401) return redirectToSignIn();
  notFound();
});
