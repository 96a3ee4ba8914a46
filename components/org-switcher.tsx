"use client";

import { Check, ChevronsUpDown, Plus } from "lucide-react";
import Link from "next/link";
import { useEffect } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";
import { LAST_ORG_COOKIE } from "@/lib/last-org";
import { PLANS } from "@/lib/plans/catalog";

interface OrgOption {
  slug: string;
  name: string;
  plan: keyof typeof PLANS;
  role: string;
}

export function OrgSwitcher({ current, organizations }: { current: OrgOption; organizations: OrgOption[] }) {
  useEffect(() => {
    document.cookie = `${LAST_ORG_COOKIE}=${encodeURIComponent(current.slug)}; path=/; max-age=31536000; samesite=lax`;
  }, [current.slug]);

  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        {/* Named by its visible text (organization, plan) after a prefix for screen readers, so the
            name holds what is on screen, as speech-input users say it; it announces as a menu button. */}
        <Button variant="ghost" className="min-w-0 shrink gap-2 px-2">
          <span aria-hidden className="flex size-6 shrink-0 items-center justify-center rounded-md bg-secondary text-xs font-semibold">
            {current.name.slice(0, 1).toUpperCase()}
          </span>
          <span className="sr-only">Organization: </span>
          <span className="min-w-0 max-w-[10rem] truncate font-medium">{current.name}</span>{" "}
          <Badge variant="secondary" className="hidden sm:inline-flex">
            {PLANS[current.plan].label}
          </Badge>
          <ChevronsUpDown className="size-4 text-muted-foreground" aria-hidden />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="start" className="w-72">
        <DropdownMenuLabel className="text-xs font-normal text-muted-foreground">Organizations</DropdownMenuLabel>
        {organizations.map((org) => (
          <DropdownMenuItem key={org.slug} asChild>
            <Link href={`/${org.slug}/settings/api`} className="flex items-center gap-2">
              <span className="flex size-6 items-center justify-center rounded-md bg-secondary text-xs font-semibold">{org.name.slice(0, 1).toUpperCase()}</span>
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
