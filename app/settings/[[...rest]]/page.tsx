import { notFound, redirect } from "next/navigation";
import { orgSettingsPath } from "@/lib/last-org";
import { landingMembership } from "@/lib/session";

/** `/settings/api` and friends open the same page of the organization used last, with their filters. */
export default async function SettingsRedirect({
  params,
  searchParams,
}: {
  params: Promise<{ rest?: string[] }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const [{ rest = [] }, query] = await Promise.all([params, searchParams]);
  const target = await landingMembership();
  if (!target) notFound();
  redirect(orgSettingsPath(target.orgSlug, rest, query));
}
