"use client";

import { Fingerprint, LogOut, MonitorSmartphone } from "lucide-react";
import Link from "next/link";
import { useState } from "react";
import { ConfirmFooter } from "@/components/confirm-footer";
import { useConfirmAction, type ConfirmAction } from "@/components/use-confirm-action";
import {
  AlertDialog,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogHeader,
  AlertDialogTitle,
} from "@/components/ui/alert-dialog";
import { Avatar, AvatarFallback } from "@/components/ui/avatar";
import { Button } from "@/components/ui/button";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";
import { initials } from "@/lib/initials";

/** Server actions that take no input; on success they redirect to /signin, so a result is a refusal. */
export type SignOutAction = ConfirmAction<Record<string, never>, unknown>;

export function UserMenu({
  name,
  email,
  signOutAction,
  signOutEverywhereAction,
}: {
  name: string;
  email: string;
  signOutAction: SignOutAction;
  signOutEverywhereAction: SignOutAction;
}) {
  const [confirmOpen, setConfirmOpen] = useState(false);
  const signOut = useConfirmAction(signOutAction);
  const signOutEverywhere = useConfirmAction(signOutEverywhereAction);
  const pending = signOut.pending || signOutEverywhere.pending;
  const shown = initials(name);

  return (
    <>
      <DropdownMenu>
        <DropdownMenuTrigger asChild>
          {/* The accessible name starts with the initials the button shows (WCAG 2.5.3, label in name). */}
          <Button variant="ghost" size="icon" className="rounded-full" aria-label={`${shown}: Account menu for ${name}`}>
            <Avatar className="size-8">
              <AvatarFallback>{shown}</AvatarFallback>
            </Avatar>
          </Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent align="end" className="w-60">
          <DropdownMenuLabel>
            <div className="font-medium">{name}</div>
            <div className="truncate text-xs font-normal text-muted-foreground">{email}</div>
          </DropdownMenuLabel>
          <DropdownMenuSeparator />
          <DropdownMenuItem asChild>
            <Link href="/settings/security">
              <Fingerprint className="size-4" aria-hidden />
              Security
            </Link>
          </DropdownMenuItem>
          <DropdownMenuSeparator />
          <DropdownMenuItem disabled={pending} onSelect={() => signOut.run({})}>
            <LogOut className="size-4" aria-hidden />
            Sign out
          </DropdownMenuItem>
          <DropdownMenuItem disabled={pending} onSelect={() => setConfirmOpen(true)}>
            <MonitorSmartphone className="size-4" aria-hidden />
            Sign out everywhere…
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
      <AlertDialog
        open={confirmOpen}
        onOpenChange={(next) => {
          setConfirmOpen(next);
          signOutEverywhere.clearError();
        }}
      >
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>Sign out everywhere?</AlertDialogTitle>
            <AlertDialogDescription>
              This ends every session of {email}: on this device and on every other browser or device where you are signed in. Each of them
              will need your password to sign in again.
            </AlertDialogDescription>
          </AlertDialogHeader>
          <ConfirmFooter
            label="Sign out everywhere"
            pendingLabel="Signing out…"
            pending={pending}
            error={signOutEverywhere.error}
            onConfirm={() => signOutEverywhere.run({})}
          />
        </AlertDialogContent>
      </AlertDialog>
    </>
  );
}
