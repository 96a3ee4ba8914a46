import { redirect } from "next/navigation";
import { landingMembership } from "@/lib/session";

export const dynamic = "force-dynamic";

export default async function HomePage() {
  const target = await landingMembership();
  redirect(target ? `/${target.orgSlug}/settings/api` : "/no-organization");
}
