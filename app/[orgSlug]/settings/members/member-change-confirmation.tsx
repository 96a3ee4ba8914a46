"use client";

import { useRouter } from "next/navigation";
import { toast } from "@/components/toast";
import { ConfirmFooter } from "@/components/confirm-footer";
import { useConfirmAction } from "@/components/use-confirm-action";
import { AlertDialog, AlertDialogContent, AlertDialogDescription, AlertDialogHeader, AlertDialogTitle } from "@/components/ui/alert-dialog";
import { ROLE_INFO } from "@/lib/roles";
import { changeMemberRoleAction, leaveOrganizationAction, removeMemberAction, transferOwnershipAction } from "./actions";
import type { MemberChange } from "./member-change";

export interface MemberChangeConfirmationProps {
  orgId: string;
  orgName: string;
  viewerId: string;
  change: MemberChange;
  onClose: () => void;
}

/** The four changes this dialog may confirm, each closing it and saying what happened when it succeeds. */
function useMemberChangeActions(orgName: string, viewerId: string, onClose: () => void) {
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
  return { remove, transfer, changeRole, leave };
}

/**
 * The confirmation of a change that takes access away, saying what will happen. Loaded when a
 * change is chosen (./member-controls.tsx), not with the page.
 */
export function MemberChangeConfirmation({ orgId, orgName, viewerId, change, onClose }: MemberChangeConfirmationProps) {
  const { remove, transfer, changeRole, leave } = useMemberChangeActions(orgName, viewerId, onClose);
  const { member } = change;
  const self = member.userId === viewerId;
  const newRole = change.kind === "change-role" ? change.role : member.role;
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
  }[change.kind];
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
          variant={change.kind === "transfer" ? "default" : "destructive"}
        />
      </AlertDialogContent>
    </AlertDialog>
  );
}
