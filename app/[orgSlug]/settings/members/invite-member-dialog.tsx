"use client";

import { UserPlus } from "lucide-react";
import type { Role } from "@/core/enums";
import { DialogLoading } from "@/components/dialog-loading";
import { FormDialog } from "@/components/form-dialog";
import { onDemand } from "@/components/on-demand";
import { Button } from "@/components/ui/button";
import type { InviteProps } from "./invite-member-form";

const Invite = onDemand<InviteProps>(() => import("./invite-member-form").then((module) => module.Invite), <DialogLoading />);

/** Invite by email with a role the inviter may grant; the link is shown once. */
export function InviteMemberDialog({ orgId, roles }: { orgId: string; roles: Role[] }) {
  return (
    <FormDialog
      trigger={
        <Button {...Invite.prefetchHandlers}>
          <UserPlus className="size-4" aria-hidden /> Invite member
        </Button>
      }
      form={(close) => <Invite orgId={orgId} roles={roles} onDone={close} />}
    />
  );
}
