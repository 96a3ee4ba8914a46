import { SettingsFrame } from "@/components/settings-frame";
import { requireOrgAccess } from "@/lib/org-access";

export default async function SettingsLayout({ children, params }: { children: React.ReactNode; params: Promise<{ orgSlug: string }> }) {
  const { orgSlug } = await params;
  const { membership } = await requireOrgAccess(orgSlug);
  return (
    <SettingsFrame orgSlug={orgSlug} role={membership.role}>
      {children}
    </SettingsFrame>
  );
}
