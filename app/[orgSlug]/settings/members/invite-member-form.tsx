"use client";

import { useState } from "react";
import { toast } from "@/components/toast";
import type { Role } from "@/core/enums";
import { FormAlert } from "@/components/form-alert";
import { FormDialogFooter } from "@/components/form-dialog";
import { OneTimeSecret } from "@/components/one-time-secret";
import { useActionForm } from "@/components/use-action-form";
import { Button } from "@/components/ui/button";
import { DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { INVITATION_LIFETIME_DAYS } from "@/lib/invitations/link";
import type { MailOutcome } from "@/lib/mail";
import { ROLE_INFO } from "@/lib/roles";
import { inviteMemberAction } from "./actions";

interface Invited {
  email: string;
  role: Role;
  url: string;
  replaced: boolean;
  mail: MailOutcome;
}

export interface InviteProps {
  orgId: string;
  roles: Role[];
  onDone: () => void;
}

/** The invitation form, then the link it made (shown once): loaded when "Invite member" opens (./invite-member-dialog.tsx). */
export function Invite({ orgId, roles, onDone }: InviteProps) {
  const [invited, setInvited] = useState<Invited | null>(null);
  if (!invited) return <InviteForm orgId={orgId} roles={roles} onInvited={setInvited} />;
  return (
    <>
      <DialogHeader>
        <DialogTitle>Send this link to {invited.email}</DialogTitle>
        <DialogDescription>
          {invited.mail.status === "sent" ? "We also emailed it. " : ""}It works once, for {INVITATION_LIFETIME_DAYS} days, and only for someone signed in as{" "}
          {invited.email}.{invited.replaced ? " The earlier invitation to this email no longer works." : ""}
        </DialogDescription>
      </DialogHeader>
      {invited.mail.status === "failed" ? (
        <FormAlert>The email could not be sent ({invited.mail.reason}). Copy the link and send it yourself.</FormAlert>
      ) : null}
      <OneTimeSecret id="invitation-link" label="Invitation link" value={invited.url} warning="This link will not be shown again">
        <p>Anyone who has it can see the invitation, so send it directly to {invited.email}. If it gets lost, invite them again for a new link.</p>
      </OneTimeSecret>
      <DialogFooter>
        <Button onClick={onDone}>Done</Button>
      </DialogFooter>
    </>
  );
}

function InviteForm({ orgId, roles, onInvited }: { orgId: string; roles: Role[]; onInvited: (invited: Invited) => void }) {
  const [role, setRole] = useState<Role>(roles.includes("member") ? "member" : roles[0]!);
  const { pending, onSubmit, error, fieldErrors } = useActionForm(inviteMemberAction, (invited) => {
    onInvited(invited);
    toast.success(`Invited ${invited.email} as ${ROLE_INFO[invited.role].withArticle}`);
  });
  return (
    <form onSubmit={onSubmit} className="grid gap-4" noValidate>
      <DialogHeader>
        <DialogTitle>Invite a member</DialogTitle>
        <DialogDescription>You get a link to send them. They join with the role you choose, which you can change later.</DialogDescription>
      </DialogHeader>
      {error && !fieldErrors.email && !fieldErrors.role ? <FormAlert>{error}</FormAlert> : null}
      <input type="hidden" name="orgId" value={orgId} />
      <input type="hidden" name="role" value={role} />
      <FormField label="Email" error={fieldErrors.email?.[0]}>
        <Input name="email" type="email" placeholder="name@company.com" autoComplete="off" required autoFocus />
      </FormField>
      <Select value={role} onValueChange={(value) => setRole(value as Role)}>
        <FormField label="Role" error={fieldErrors.role?.[0]} description={ROLE_INFO[role].description}>
          <SelectTrigger className="w-full">
            <SelectValue>{ROLE_INFO[role].label}</SelectValue>
          </SelectTrigger>
        </FormField>
        <SelectContent>
          {roles.map((option) => (
            <SelectItem key={option} value={option}>
              {ROLE_INFO[option].label}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
      <FormDialogFooter label="Create invitation" pendingLabel="Inviting…" pending={pending} />
    </form>
  );
}
