"use client";

import { createColumnHelper, tableFeatures, useTable } from "@tanstack/react-table";
import { MoreHorizontal, ShieldCheck } from "lucide-react";
import { useRouter } from "next/navigation";
import { useMemo, useState } from "react";
import { toast } from "sonner";
import type { Role } from "@/core/enums";
import type { MemberDto } from "@/db/queries/members";
import { ConfirmFooter } from "@/components/confirm-footer";
import { DataTableRows } from "@/components/data-table-rows";
import { RelativeTime } from "@/components/relative-time";
import { useConfirmAction } from "@/components/use-confirm-action";
import { AlertDialog, AlertDialogContent, AlertDialogDescription, AlertDialogHeader, AlertDialogTitle } from "@/components/ui/alert-dialog";
import { Avatar, AvatarFallback } from "@/components/ui/avatar";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from "@/components/ui/dropdown-menu";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { Table, TableBody, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { mayManageRole } from "@/lib/authz";
import { initials } from "@/lib/initials";
import { ROLE_INFO } from "@/lib/roles";
import { changeMemberRoleAction, leaveOrganizationAction, removeMemberAction, transferOwnershipAction } from "./actions";

const features = tableFeatures({});

// On a phone the member and their role come first; the dates wait for a wider screen.
const columnClass = (columnId: string) => (columnId === "joinedAt" || columnId === "lastSignInAt" ? "hidden md:table-cell" : undefined);
const helper = createColumnHelper<typeof features, MemberDto>();

/** What a confirmation asks, and the action it runs. */
type Pending =
  | { kind: "remove"; member: MemberDto }
  | { kind: "leave"; member: MemberDto }
  | { kind: "transfer"; member: MemberDto }
  | { kind: "change-role"; member: MemberDto; role: Role };

/** An organization keeps an owner, so its last one can neither change role nor leave. */
const LAST_OWNER_HINT = "You are the only owner: transfer ownership first.";

interface Props {
  orgId: string;
  orgName: string;
  members: MemberDto[];
  viewerId: string;
  viewerRole: Role;
  grantable: Role[];
}

export function MembersClient({ orgId, orgName, members, viewerId, viewerRole, grantable }: Props) {
  const [confirming, setConfirming] = useState<Pending | null>(null);
  // The organization's one owner, whose role select and "Leave" are locked; null while there are several.
  const owners = members.filter((member) => member.role === "owner");
  const lastOwnerId = owners.length === 1 ? owners[0]!.userId : null;

  const columns = useMemo(
    () =>
      helper.columns([
        helper.accessor("name", {
          header: "Member",
          cell: (info) => {
            const member = info.row.original;
            return (
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
            );
          },
        }),
        helper.accessor("role", {
          header: "Role",
          cell: (info) => {
            const member = info.row.original;
            const editable = mayManageRole(viewerRole, member.role) && grantable.length > 1;
            if (!editable) return <Badge variant="outline">{ROLE_INFO[member.role].label}</Badge>;
            const locked = member.userId === lastOwnerId;
            const hintId = `last-owner-${member.userId}`;
            // A role change takes effect at the member's next request: ask first, as every other change here.
            return (
              <div className="grid gap-1">
                <Select value={member.role} onValueChange={(role) => setConfirming({ kind: "change-role", member, role: role as Role })} disabled={locked}>
                  <SelectTrigger size="sm" className="w-28" aria-label={`Role of ${member.name}`} aria-describedby={locked ? hintId : undefined} title={locked ? LAST_OWNER_HINT : undefined}>
                    {/* The label itself, so the server's HTML shows it before the select hydrates. */}
                    <SelectValue>{ROLE_INFO[member.role].label}</SelectValue>
                  </SelectTrigger>
                  <SelectContent>
                    {grantable.map((role) => (
                      <SelectItem key={role} value={role} description={ROLE_INFO[role].description}>
                        {ROLE_INFO[role].label}
                      </SelectItem>
                    ))}
                  </SelectContent>
                </Select>
                {locked ? (
                  <p id={hintId} className="text-xs whitespace-normal text-muted-foreground">
                    {LAST_OWNER_HINT}
                  </p>
                ) : null}
              </div>
            );
          },
        }),
        helper.accessor("hasTwoFactor", {
          header: "Two-factor",
          cell: (info) =>
            info.getValue() ? (
              <Badge variant="success">
                <ShieldCheck aria-hidden /> On
              </Badge>
            ) : (
              <Badge variant="outline" className="text-muted-foreground">
                Off
              </Badge>
            ),
        }),
        helper.accessor("joinedAt", { header: "Joined", cell: (info) => <RelativeTime value={info.getValue()} /> }),
        helper.accessor("lastSignInAt", { header: "Last sign-in", cell: (info) => <RelativeTime value={info.getValue()} fallback="Never" /> }),
        helper.display({
          id: "actions",
          header: () => <span className="sr-only">Actions</span>,
          cell: (info) => <RowActions member={info.row.original} viewerId={viewerId} viewerRole={viewerRole} lastOwnerId={lastOwnerId} onChoose={setConfirming} />,
        }),
      ]),
    [viewerId, viewerRole, grantable, lastOwnerId],
  );
  const table = useTable({ features, columns, data: members }, (state) => state);

  return (
    <Card className="gap-0 overflow-hidden py-0">
      <div className="border-b px-4 py-3">
        <p className="text-sm text-muted-foreground">
          {members.length} {members.length === 1 ? "member" : "members"}
        </p>
      </div>
      <Table aria-label="Members">
        <TableHeader>
          {table.getHeaderGroups().map((group) => (
            <TableRow key={group.id}>
              {group.headers.map((header) => (
                <TableHead key={header.id} className={columnClass(header.column.id)}>
                  <table.FlexRender header={header} />
                </TableHead>
              ))}
            </TableRow>
          ))}
        </TableHeader>
        <TableBody>
          <DataTableRows rows={table.getRowModel().rows} columnClass={columnClass} />
        </TableBody>
      </Table>
      <ConfirmMemberChange orgId={orgId} orgName={orgName} viewerId={viewerId} confirming={confirming} onClose={() => setConfirming(null)} />
    </Card>
  );
}

function RowActions({
  member,
  viewerId,
  viewerRole,
  lastOwnerId,
  onChoose,
}: {
  member: MemberDto;
  viewerId: string;
  viewerRole: Role;
  lastOwnerId: string | null;
  onChoose: (pending: Pending) => void;
}) {
  const self = member.userId === viewerId;
  const canTransfer = !self && viewerRole === "owner" && member.role !== "owner";
  const canRemove = !self && mayManageRole(viewerRole, member.role);
  if (!self && !canTransfer && !canRemove) return null;
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size="icon" aria-label={`Actions for ${member.name}`}>
          <MoreHorizontal className="size-4" aria-hidden />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        {canTransfer ? <DropdownMenuItem onSelect={() => onChoose({ kind: "transfer", member })}>Transfer ownership</DropdownMenuItem> : null}
        {canRemove ? (
          <DropdownMenuItem variant="destructive" onSelect={() => onChoose({ kind: "remove", member })}>
            Remove from organization
          </DropdownMenuItem>
        ) : null}
        {self && member.userId === lastOwnerId ? (
          <DropdownMenuItem disabled className="flex-col items-start gap-0.5">
            Leave organization
            <span className="text-xs text-muted-foreground">{LAST_OWNER_HINT}</span>
          </DropdownMenuItem>
        ) : self ? (
          <DropdownMenuItem variant="destructive" onSelect={() => onChoose({ kind: "leave", member })}>
            Leave organization
          </DropdownMenuItem>
        ) : null}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

/** The confirmation of a change that takes access away, saying what will happen. */
function ConfirmMemberChange({
  orgId,
  orgName,
  viewerId,
  confirming,
  onClose,
}: {
  orgId: string;
  orgName: string;
  viewerId: string;
  confirming: Pending | null;
  onClose: () => void;
}) {
  const router = useRouter();
  const done = (message: string) => {
    onClose();
    toast.success(message);
  };
  const remove = useConfirmAction(removeMemberAction, { onSuccess: (removed) => done(`${removed.name} was removed from ${orgName}`) });
  const transfer = useConfirmAction(transferOwnershipAction, { onSuccess: (to) => done(`${to.name} is now an owner, and you are an admin`) });
  const changeRole = useConfirmAction(changeMemberRoleAction, {
    onSuccess: (changed) => done(`${changed.userId === viewerId ? "You are" : `${changed.name} is`} now ${ROLE_INFO[changed.role].withArticle}`),
  });
  const leave = useConfirmAction(leaveOrganizationAction, {
    onSuccess: () => {
      onClose();
      toast.success(`You left ${orgName}`);
      router.replace("/");
    },
  });
  if (!confirming) return null;
  const { member } = confirming;
  const self = member.userId === viewerId;
  const newRole = confirming.kind === "change-role" ? confirming.role : member.role;
  const dialog = {
    remove: {
      title: `Remove ${member.name}?`,
      body: `${member.name} (${member.email}) loses access to ${orgName} at once: their next page load here says it does not exist. API keys they created keep working; revoke them separately if they should stop.`,
      label: "Remove member",
      pendingLabel: "Removing…",
      action: remove,
      run: () => remove.run({ orgId, userId: member.userId }),
    },
    leave: {
      title: `Leave ${orgName}?`,
      body: `You lose access to ${orgName} at once. To come back, you need a new invitation from an owner or admin.`,
      label: "Leave organization",
      pendingLabel: "Leaving…",
      action: leave,
      run: () => leave.run({ orgId }),
    },
    transfer: {
      title: `Transfer ownership to ${member.name}?`,
      body: `${member.name} becomes an owner and you become an admin. You can still create keys and invite members, but no longer revoke or roll keys, change the plan, or manage admins and owners.`,
      label: "Transfer ownership",
      pendingLabel: "Transferring…",
      action: transfer,
      run: () => transfer.run({ orgId, userId: member.userId }),
    },
    "change-role": {
      title: self ? `Make yourself ${ROLE_INFO[newRole].withArticle}?` : `Make ${member.name} ${ROLE_INFO[newRole].withArticle}?`,
      body: self
        ? "You lose what your current role allows at once, and someone with a higher role has to give it back."
        : `${ROLE_INFO[newRole].label}: ${ROLE_INFO[newRole].description} The change applies from ${member.name}'s next page load or request.`,
      label: self ? "Change my role" : "Change role",
      pendingLabel: "Changing…",
      action: changeRole,
      run: () => changeRole.run({ orgId, userId: member.userId, role: newRole }),
    },
  }[confirming.kind];
  return (
    <AlertDialog
      open
      onOpenChange={(open) => {
        if (!open) {
          dialog.action.clearError();
          onClose();
        }
      }}
    >
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>{dialog.title}</AlertDialogTitle>
          <AlertDialogDescription>{dialog.body}</AlertDialogDescription>
        </AlertDialogHeader>
        <ConfirmFooter
          label={dialog.label}
          pendingLabel={dialog.pendingLabel}
          pending={dialog.action.pending}
          error={dialog.action.error}
          onConfirm={dialog.run}
          variant={confirming.kind === "transfer" ? "default" : "destructive"}
        />
      </AlertDialogContent>
    </AlertDialog>
  );
}
