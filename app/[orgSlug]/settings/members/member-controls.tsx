"use client";

import { MoreHorizontal } from "lucide-react";
import { useState } from "react";
import type { Role } from "@/core/enums";
import type { MemberDto } from "@/db/queries/members";
import { onDemand } from "@/components/on-demand";
import { Button } from "@/components/ui/button";
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from "@/components/ui/dropdown-menu";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { ROLE_INFO } from "@/lib/roles";
import { LAST_OWNER_HINT, type MemberChange } from "./member-change";
import type { MemberChangeConfirmationProps } from "./member-change-confirmation";

// The only controls of the members table (./members-table.tsx renders the rest on the server).

const Confirmation = onDemand<MemberChangeConfirmationProps>(() => import("./member-change-confirmation").then((module) => module.MemberChangeConfirmation));

/** Who confirms a change: the organization and the viewer. */
export interface ConfirmationContext {
  orgId: string;
  orgName: string;
  viewerId: string;
}

/** The change chosen and its confirmation, loaded once a change is chosen. */
function useMemberChange(context: ConfirmationContext) {
  const [change, setChange] = useState<MemberChange | null>(null);
  const confirmation = change ? <Confirmation {...context} change={change} onClose={() => setChange(null)} /> : null;
  return { choose: setChange, confirmation };
}

/** A member's role, changed after a confirmation (it takes effect at their next request). */
export function MemberRoleSelect({ context, member, grantable, locked }: { context: ConfirmationContext; member: MemberDto; grantable: Role[]; locked: boolean }) {
  const { choose, confirmation } = useMemberChange(context);
  const hintId = `last-owner-${member.userId}`;
  return (
    <>
      <Select value={member.role} onValueChange={(role) => choose({ kind: "change-role", member, role: role as Role })} onOpenChange={(open) => open && Confirmation.prefetch()} disabled={locked}>
        <SelectTrigger size="sm" className="w-28" aria-label={`Role of ${member.name}`} aria-describedby={locked ? hintId : undefined} title={locked ? LAST_OWNER_HINT : undefined} {...Confirmation.prefetchHandlers}>
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
      {confirmation}
    </>
  );
}

/** What the viewer may do to a member's membership, as the row's menu offers it. */
export interface MemberActions {
  transfer: boolean;
  remove: boolean;
  /** Their own row: leave, or (the last owner) why they cannot. */
  leave: "allowed" | "last-owner" | null;
}

export function MemberActionsMenu({ context, member, actions }: { context: ConfirmationContext; member: MemberDto; actions: MemberActions }) {
  const { choose, confirmation } = useMemberChange(context);
  return (
    <>
      <DropdownMenu onOpenChange={(open) => open && Confirmation.prefetch()}>
        <DropdownMenuTrigger asChild>
          <Button variant="ghost" size="icon" aria-label={`Actions for ${member.name}`} {...Confirmation.prefetchHandlers}>
            <MoreHorizontal className="size-4" aria-hidden />
          </Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent align="end">
          {actions.transfer ? <DropdownMenuItem onSelect={() => choose({ kind: "transfer", member })}>Transfer ownership</DropdownMenuItem> : null}
          {actions.remove ? (
            <DropdownMenuItem variant="destructive" onSelect={() => choose({ kind: "remove", member })}>
              Remove from organization
            </DropdownMenuItem>
          ) : null}
          {actions.leave === "last-owner" ? (
            <DropdownMenuItem disabled className="flex-col items-start gap-0.5">
              Leave organization
              <span className="text-xs text-muted-foreground">{LAST_OWNER_HINT}</span>
            </DropdownMenuItem>
          ) : actions.leave === "allowed" ? (
            <DropdownMenuItem variant="destructive" onSelect={() => choose({ kind: "leave", member })}>
              Leave organization
            </DropdownMenuItem>
          ) : null}
        </DropdownMenuContent>
      </DropdownMenu>
      {confirmation}
    </>
  );
}
