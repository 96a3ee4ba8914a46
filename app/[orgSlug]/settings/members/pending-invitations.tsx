import { MailPlus } from "lucide-react";
import type { Role } from "@/core/enums";
import type { InvitationDto } from "@/db/queries/invitations";
import { EmptyState } from "@/components/empty-state";
import { ExpiryTime } from "@/components/expiry-time";
import { RelativeTime } from "@/components/relative-time";
import { Badge } from "@/components/ui/badge";
import { Card, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Table, TableActionsHead, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { INVITATION_LIFETIME_DAYS } from "@/lib/invitations/link";
import { ROLE_INFO } from "@/lib/roles";
import { holdersCan } from "@/lib/authz";
import { RevokeInvitationButton } from "./revoke-invitation-button";

/** Invitations not yet accepted, with who sent them and when they expire; rendered on the server, only "Revoke" hydrates. */
export function PendingInvitations({
  orgId,
  invitations,
  grantable,
  canInvite,
}: {
  orgId: string;
  invitations: InvitationDto[];
  grantable: Role[];
  canInvite: boolean;
}) {
  return (
    <Card className="gap-0 overflow-hidden py-0">
      <CardHeader className="border-b py-4">
        <CardTitle className="text-base">Pending invitations</CardTitle>
        <CardDescription>Each link works once, for {INVITATION_LIFETIME_DAYS} days, and only for the invited email.</CardDescription>
      </CardHeader>
      {invitations.length === 0 ? (
        <EmptyState
          icon={<MailPlus aria-hidden />}
          title="No pending invitations"
          description={
            canInvite
              ? "Use “Invite member” to bring in the admin who creates keys or the people who watch usage."
              : holdersCan("members.manage", "invite people to this organization")
          }
        />
      ) : (
        <Table aria-label="Pending invitations">
          <TableHeader>
            <TableRow>
              <TableHead>Email</TableHead>
              <TableHead>Role</TableHead>
              <TableHead className="hidden md:table-cell">Invited by</TableHead>
              <TableHead>Expires</TableHead>
              <TableActionsHead />
            </TableRow>
          </TableHeader>
          <TableBody>
            {invitations.map((invitation) => (
              <TableRow key={invitation.id}>
                <TableCell className="font-medium break-all whitespace-normal">{invitation.email}</TableCell>
                <TableCell>
                  <Badge variant="outline">{ROLE_INFO[invitation.role].label}</Badge>
                </TableCell>
                <TableCell className="hidden md:table-cell">
                  {invitation.invitedByName ?? "Deleted user"}
                  <span className="block text-xs text-muted-foreground">
                    <RelativeTime value={invitation.createdAt} />
                  </span>
                </TableCell>
                <TableCell>{invitation.expired ? <Badge variant="warning">Expired</Badge> : <ExpiryTime expiresAt={invitation.expiresAt} bare />}</TableCell>
                <TableCell className="text-right">
                  {grantable.includes(invitation.role) ? <RevokeInvitationButton orgId={orgId} invitationId={invitation.id} email={invitation.email} /> : null}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </Card>
  );
}
