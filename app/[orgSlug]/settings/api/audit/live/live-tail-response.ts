import "server-only";
import { filtersError, parseAuditFilters } from "@/lib/audit-filters";
import { refusal } from "@/lib/csv-download";
import { openLiveTail } from "@/lib/live-tail/stream";
import { orgAccess } from "@/lib/org-access";
import { currentSession } from "@/lib/session";

const ROW_ID = /^\d{1,15}$/;

/**
 * The audit log's live tail for the URL's filters (docs/features/live-tail.md), as server-sent events. It starts
 * after `since` (the newest row the page shows) or, on a reconnect, after the Last-Event-ID the
 * browser sends; without either, from now. The role is read from the database here and again
 * every few seconds while it runs.
 */
export async function liveTailResponse(slug: string, searchParams: URLSearchParams, lastEventId: string | null, signal: AbortSignal): Promise<Response> {
  const access = await orgAccess(slug, "requests.inspect");
  if (!access.ok) return refusal(access.status, access.message);
  const session = await currentSession();
  if (!session) return refusal(401, "Your session has ended. Sign in again.");
  const params = new URLSearchParams(searchParams);
  const since = params.get("since");
  params.delete("since");
  const filters = parseAuditFilters(params);
  if (!filters.success) return refusal(400, filtersError(filters.error));
  const after = lastEventId?.trim() || since;
  if (after && !ROW_ID.test(after)) return refusal(400, "This live view's position is not valid. Turn Live off and on again.");

  const viewer = { userId: access.userId, sessionId: session.sessionId, orgId: access.membership.orgId, orgSlug: slug };
  const { stream } = await openLiveTail(viewer, { ...filters.data, mode: filters.data.mode ?? "live" }, after ? Number(after) : null, signal);
  return new Response(stream, {
    headers: {
      "Content-Type": "text/event-stream; charset=utf-8",
      // no-transform: no compression layer holds events back to fill a block.
      "Cache-Control": "no-cache, no-store, no-transform",
      "X-Accel-Buffering": "no",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
