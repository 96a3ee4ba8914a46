"use client";

import { ChevronDown, MoreHorizontal } from "lucide-react";
import { useId, useState } from "react";
import type { Role } from "@/core/enums";
import type { MemberDto } from "@/db/queries/members";
import { onDemand } from "@/components/on-demand";
import { useDisabledUntilHydrated } from "@/components/use-hydrated";
import { useLoadOnIntent } from "@/components/use-load-on-intent";
import { Button } from "@/components/ui/button";
import { SELECT_TRIGGER_LOOK } from "@/components/ui/select-trigger-look";
import { ROLE_INFO } from "@/lib/roles";
import { cn } from "@/lib/utils";
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

const loadRoleSelect = () => import("./member-control-menus").then((module) => module.RoleSelectMenu);
const loadActionsMenu = () => import("./member-control-menus").then((module) => module.ActionsMenu);

/**
 * A member's role, changed after a confirmation (it takes effect at their next request). Drawn as
 * the select's closed trigger; the select itself loads when the pointer or the keyboard comes to it
 * (docs/decisions/0070-member-menus-load-on-intent.md).
 */
export function MemberRoleSelect({
  context,
  member,
  grantable,
  locked,
}: {
  context: ConfirmationContext;
  member: MemberDto;
  grantable: Role[];
  locked: boolean;
}) {
  const { choose, confirmation } = useMemberChange(context);
  const select = useLoadOnIntent(loadRoleSelect);
  const hintId = `last-owner-${member.userId}`;
  const listboxId = useId();
  const label = ROLE_INFO[member.role].label;
  const untilHydrated = useDisabledUntilHydrated(locked);
  const { "aria-expanded": expanded, ...intent } = select.triggerProps;
  return (
    <>
      {select.Part && !locked ? (
        <select.Part
          member={member}
          grantable={grantable}
          choose={choose}
          onOpen={Confirmation.prefetch}
          defaultOpen={select.openOnArrival}
          autoFocus={select.focusOnArrival}
        />
      ) : (
        <button
          type="button"
          role="combobox"
          aria-haspopup="listbox"
          aria-expanded={expanded}
          aria-controls={listboxId}
          aria-label={`Role of ${member.name}`}
          aria-describedby={locked ? hintId : undefined}
          title={locked ? LAST_OWNER_HINT : undefined}
          data-slot="select-trigger"
          data-size="sm"
          className={cn(SELECT_TRIGGER_LOOK, "w-28")}
          {...untilHydrated}
          {...intent}
        >
          <span data-slot="select-value">{label}</span>
          <ChevronDown className="size-4 opacity-50" aria-hidden />
        </button>
      )}
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

/** The row's menu of changes to the membership, loaded as the role select is. */
export function MemberActionsMenu({ context, member, actions }: { context: ConfirmationContext; member: MemberDto; actions: MemberActions }) {
  const { choose, confirmation } = useMemberChange(context);
  const menu = useLoadOnIntent(loadActionsMenu);
  const look = { variant: "ghost", size: "icon", "aria-label": `Actions for ${member.name}` } as const;
  const icon = <MoreHorizontal className="size-4" aria-hidden />;
  return (
    <>
      {menu.Part ? (
        <menu.Part
          member={member}
          actions={actions}
          choose={choose}
          onOpen={Confirmation.prefetch}
          defaultOpen={menu.openOnArrival}
          trigger={
            <Button {...look} autoFocus={menu.focusOnArrival}>
              {icon}
            </Button>
          }
        />
      ) : (
        <Button {...look} type="button" aria-haspopup="menu" {...menu.triggerProps}>
          {icon}
        </Button>
      )}
      {confirmation}
    </>
  );
}
