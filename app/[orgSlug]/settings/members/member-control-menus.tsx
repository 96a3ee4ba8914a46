"use client";

import type { ReactElement } from "react";
import type { Role } from "@/core/enums";
import type { MemberDto } from "@/db/queries/members";
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from "@/components/ui/dropdown-menu";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { ROLE_INFO } from "@/lib/roles";
import { LAST_OWNER_HINT, type MemberChange } from "./member-change";
import type { MemberActions } from "./member-controls";

// The menus of ./member-controls.tsx, loaded when the pointer or the keyboard comes to a row's control.

interface MenuProps {
  member: MemberDto;
  choose: (change: MemberChange) => void;
  /** Called as the menu opens, so the confirmation's code is on its way. */
  onOpen: () => void;
  defaultOpen: boolean;
  autoFocus: boolean;
}

export function RoleSelectMenu({ member, grantable, choose, onOpen, defaultOpen, autoFocus }: MenuProps & { grantable: Role[] }) {
  return (
    <Select
      value={member.role}
      onValueChange={(role) => choose({ kind: "change-role", member, role: role as Role })}
      onOpenChange={(open) => open && onOpen()}
      defaultOpen={defaultOpen}
    >
      <SelectTrigger size="sm" className="w-28" aria-label={`Role of ${member.name}`} autoFocus={autoFocus}>
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
  );
}

export function ActionsMenu({
  member,
  actions,
  choose,
  onOpen,
  defaultOpen,
  trigger,
}: Omit<MenuProps, "autoFocus"> & { actions: MemberActions; trigger: ReactElement }) {
  return (
    <DropdownMenu onOpenChange={(open) => open && onOpen()} defaultOpen={defaultOpen}>
      <DropdownMenuTrigger asChild>{trigger}</DropdownMenuTrigger>
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
  );
}
