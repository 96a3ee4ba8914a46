"use client";

import { Check, Plus } from "lucide-react";
import Link from "next/link";
import type { ReactElement } from "react";
import type { OrgOption } from "@/components/org-switcher";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";

/** The organization switcher's menu around its trigger, loaded on intent (components/org-switcher.tsx). */
export function OrgSwitcherMenu({
  trigger,
  current,
  organizations,
  defaultOpen,
}: {
  trigger: ReactElement;
  current: OrgOption;
  organizations: OrgOption[];
  defaultOpen: boolean;
}) {
  return (
    <DropdownMenu defaultOpen={defaultOpen}>
      <DropdownMenuTrigger asChild>{trigger}</DropdownMenuTrigger>
      <DropdownMenuContent align="start" className="w-72">
        <DropdownMenuLabel className="text-xs font-normal text-muted-foreground">Organizations</DropdownMenuLabel>
        {organizations.map((org) => (
          <DropdownMenuItem key={org.slug} asChild>
            <Link href={`/${org.slug}/settings/api`} className="flex items-center gap-2">
              <span className="flex size-6 items-center justify-center rounded-md bg-secondary text-xs font-semibold">
                {org.name.slice(0, 1).toUpperCase()}
              </span>
              <span className="flex-1 truncate">{org.name}</span>
              <span className="text-xs capitalize text-muted-foreground">{org.role}</span>
              {org.slug === current.slug ? <Check className="size-4" aria-label="Current" /> : <span className="size-4" />}
            </Link>
          </DropdownMenuItem>
        ))}
        <DropdownMenuSeparator />
        <DropdownMenuItem asChild>
          <Link href="/signup" className="text-muted-foreground">
            <Plus className="size-4" aria-hidden /> New account and organization
          </Link>
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
