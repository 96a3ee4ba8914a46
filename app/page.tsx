import { redirect } from "next/navigation";
import { orgSettingsPath } from "@/lib/last-org";
import { landingMembership } from "@/lib/session";

export const dynamic = "force-dynamic";

export default async function HomePage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const target = await landingMembership();
  redirect(target ? orgSettingsPath(target.orgSlug, [], await searchParams) : "/no-organization");
}
