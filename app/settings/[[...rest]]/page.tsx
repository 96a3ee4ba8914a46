import { notFound, redirect } from "next/navigation";
import { landingMembership } from "@/lib/session";

/** `/settings/api` and friends open the same page of the organization used last. */
export default async function SettingsRedirect({ params }: { params: Promise<{ rest?: string[] }> }) {
  const { rest = [] } = await params;
  const target = await landingMembership();
  if (!target) notFound();
  redirect(`/${target.orgSlug}/settings/${rest.map(encodeURIComponent).join("/") || "api"}`);
}
