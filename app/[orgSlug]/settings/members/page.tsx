import type { Metadata } from "next";
import { listOpenInvitations } from "@/db/queries/invitations";
import { isSsoRequired, listMembers } from "@/db/queries/members";
import { securitySettings } from "@/db/queries/organizations";
import { PageHeader } from "@/components/page-header";
import { can, grantableRoles } from "@/lib/authz";
import { requireOrgAccess } from "@/lib/org-access";
import { InviteMemberDialog } from "./invite-member-dialog";
import { MembersTable } from "./members-table";
import { PendingInvitations } from "./pending-invitations";
import { TwoFactorRequirement } from "./two-factor-requirement";

export const metadata: Metadata = { title: "Members" };

/** Who is in the organization with which role, and who is invited. Guests get a 404. */
export default async function MembersPage({ params }: { params: Promise<{ orgSlug: string }> }) {
  const { orgSlug } = await params;
  const { userId, membership } = await requireOrgAccess(orgSlug, "members.view");
  const [members, invitations, { requireTwoFactor }, ssoRequired] = await Promise.all([
    listMembers(membership.orgId),
    listOpenInvitations(membership.orgId),
    securitySettings(membership.orgId),
    isSsoRequired(membership.orgId),
  ]);
  const grantable = grantableRoles(membership.role);
  const canInvite = can(membership.role, "members.manage");
  return (
    <div className="space-y-6">
      <PageHeader
        title="Members"
        description={`The people in ${membership.orgName} and what each may do. Roles are checked on every request: a change applies at the next page load.`}
        actions={canInvite ? <InviteMemberDialog orgId={membership.orgId} roles={grantable} /> : null}
      />
      <TwoFactorRequirement
        orgId={membership.orgId}
        orgName={membership.orgName}
        required={requireTwoFactor}
        withTwoFactor={members.filter((member) => member.hasTwoFactor).length}
        total={members.length}
        canManage={can(membership.role, "security.manage")}
        viewerHasTwoFactor={members.some((member) => member.userId === userId && member.hasTwoFactor)}
      />
      <MembersTable
        orgId={membership.orgId}
        orgName={membership.orgName}
        members={members}
        ssoRequired={ssoRequired}
        viewerId={userId}
        viewerRole={membership.role}
        grantable={grantable}
      />
      <PendingInvitations orgId={membership.orgId} invitations={invitations} grantable={grantable} canInvite={canInvite} />
    </div>
  );
}
