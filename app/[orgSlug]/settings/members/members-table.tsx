import type { Role } from "@/core/enums";
import type { MemberDto } from "@/db/queries/members";
import { RelativeTime } from "@/components/relative-time";
import { Avatar, AvatarFallback } from "@/components/ui/avatar";
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { Table, TableActionsHead, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { mayManageRole } from "@/lib/authz";
import { initials } from "@/lib/initials";
import { ROLE_INFO } from "@/lib/roles";
import { LAST_OWNER_HINT } from "./member-change";
import { MemberSignIn } from "./member-sign-in";
import { MemberActionsMenu, MemberRoleSelect, type ConfirmationContext, type MemberActions } from "./member-controls";

// On a phone the member, their role and how they sign in come first; the dates wait for a wider screen.
const WIDE_ONLY = "hidden md:table-cell";

interface Props {
  orgId: string;
  orgName: string;
  members: MemberDto[];
  /** The organization requires single sign-on of everyone but its owners. */
  ssoRequired: boolean;
  viewerId: string;
  viewerRole: Role;
  grantable: Role[];
}

/** What the viewer may do to `member` through the row's menu, or null for no menu. */
function actionsOn(member: MemberDto, viewerId: string, viewerRole: Role, lastOwnerId: string | null): MemberActions | null {
  const self = member.userId === viewerId;
  const actions: MemberActions = {
    transfer: !self && viewerRole === "owner" && member.role !== "owner",
    remove: !self && mayManageRole(viewerRole, member.role),
    leave: !self ? null : member.userId === lastOwnerId ? "last-owner" : "allowed",
  };
  return actions.transfer || actions.remove || actions.leave ? actions : null;
}

/**
 * The organization's members, rendered on the server: only a row's role select and actions menu
 * hydrate (./member-controls.tsx).
 */
export function MembersTable({ orgId, orgName, members, ssoRequired, viewerId, viewerRole, grantable }: Props) {
  const context: ConfirmationContext = { orgId, orgName, viewerId };
  // The organization's one owner, whose role select and "Leave" are locked; null while there are several.
  const owners = members.filter((member) => member.role === "owner");
  const lastOwnerId = owners.length === 1 ? owners[0]!.userId : null;
  return (
    <Card className="gap-0 overflow-hidden py-0">
      <div className="border-b px-4 py-3">
        <p className="text-sm text-muted-foreground">
          {members.length} {members.length === 1 ? "member" : "members"}
        </p>
        {/* Said here because it explains the SSO badges below; the switch is on the Single sign-on page. */}
        {ssoRequired ? (
          <p className="mt-1 text-sm text-muted-foreground">
            Single sign-on is required: admins, members and guests sign in through the identity provider; owners may still use their password.
          </p>
        ) : null}
      </div>
      <Table aria-label="Members">
        <TableHeader>
          <TableRow>
            <TableHead>Member</TableHead>
            <TableHead>Role</TableHead>
            <TableHead>Sign-in</TableHead>
            <TableHead className={WIDE_ONLY}>Joined</TableHead>
            <TableHead className={WIDE_ONLY}>Last sign-in</TableHead>
            <TableActionsHead />
          </TableRow>
        </TableHeader>
        <TableBody>
          {members.map((member) => (
            <MemberRow
              key={member.userId}
              member={member}
              context={context}
              viewerId={viewerId}
              viewerRole={viewerRole}
              grantable={grantable}
              lastOwnerId={lastOwnerId}
            />
          ))}
        </TableBody>
      </Table>
    </Card>
  );
}

/** One member: who they are, their role (a select where the viewer may change it), how they sign in, dates, and the row's menu. */
function MemberRow({
  member,
  context,
  viewerId,
  viewerRole,
  grantable,
  lastOwnerId,
}: {
  member: MemberDto;
  context: ConfirmationContext;
  viewerId: string;
  viewerRole: Role;
  grantable: Role[];
  lastOwnerId: string | null;
}) {
  const editable = mayManageRole(viewerRole, member.role) && grantable.length > 1;
  const locked = member.userId === lastOwnerId;
  const actions = actionsOn(member, viewerId, viewerRole, lastOwnerId);
  return (
    <TableRow>
      <TableCell>
        <div className="flex items-center gap-3 whitespace-normal">
          <Avatar className="hidden sm:flex">
            <AvatarFallback>{initials(member.name)}</AvatarFallback>
          </Avatar>
          <div className="min-w-0">
            <p className="flex items-center gap-2 font-medium break-words">
              {member.name}
              {member.userId === viewerId ? <Badge variant="secondary">You</Badge> : null}
            </p>
            <p className="text-sm break-all text-muted-foreground">{member.email}</p>
          </div>
        </div>
      </TableCell>
      <TableCell>
        {editable ? (
          <div className="grid gap-1">
            <MemberRoleSelect context={context} member={member} grantable={grantable} locked={locked} />
            {locked ? (
              <p id={`last-owner-${member.userId}`} className="text-xs whitespace-normal text-muted-foreground">
                {LAST_OWNER_HINT}
              </p>
            ) : null}
          </div>
        ) : (
          <Badge variant="outline">{ROLE_INFO[member.role].label}</Badge>
        )}
      </TableCell>
      <TableCell>
        <MemberSignIn member={member} />
      </TableCell>
      <TableCell className={WIDE_ONLY}>
        <RelativeTime value={member.joinedAt} />
      </TableCell>
      <TableCell className={WIDE_ONLY}>
        <RelativeTime value={member.lastSignInAt} fallback="Never" />
      </TableCell>
      <TableCell>{actions ? <MemberActionsMenu context={context} member={member} actions={actions} /> : null}</TableCell>
    </TableRow>
  );
}
