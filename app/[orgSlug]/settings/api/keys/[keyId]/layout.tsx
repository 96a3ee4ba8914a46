import { findKey } from "./find-key";

// Checked here, outside loading.tsx's boundary: once the skeleton has streamed the status is
// sent, and an unknown key would be a 200 instead of a 404.
export default async function KeyLayout({ children, params }: { children: React.ReactNode; params: Promise<{ orgSlug: string; keyId: string }> }) {
  const { orgSlug, keyId } = await params;
  await findKey(orgSlug, keyId);
  return children;
}
