import { requireRequest } from "./load-request";

// Checked here, outside loading.tsx's boundary (the audit log's skeleton sits in the (log) group,
// so it is not above this either): once a skeleton has streamed the status is sent, and an
// unknown request would be a 200 instead of a 404.
export default async function RequestLayout({ children, params }: { children: React.ReactNode; params: Promise<{ orgSlug: string; requestId: string }> }) {
  const { orgSlug, requestId } = await params;
  await requireRequest(orgSlug, requestId);
  return children;
}
