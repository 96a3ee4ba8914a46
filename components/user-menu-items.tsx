"use client";

import { Fingerprint, LogOut, MonitorSmartphone } from "lucide-react";
import Link from "next/link";
import { useState, type ReactElement } from "react";
import { ConfirmFooter } from "@/components/confirm-footer";
import { useConfirmAction } from "@/components/use-confirm-action";
import type { SignOutAction } from "@/components/user-menu";
import { AlertDialog, AlertDialogContent, AlertDialogDescription, AlertDialogHeader, AlertDialogTitle } from "@/components/ui/alert-dialog";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";

/** The account menu around its trigger, and signing out everywhere's question; loaded on intent (components/user-menu.tsx). */
export function UserMenuItems({
  trigger,
  name,
  email,
  signOutAction,
  signOutEverywhereAction,
  defaultOpen,
}: {
  trigger: ReactElement;
  name: string;
  email: string;
  signOutAction: SignOutAction;
  signOutEverywhereAction: SignOutAction;
  defaultOpen: boolean;
}) {
  const [confirmOpen, setConfirmOpen] = useState(false);
  const signOut = useConfirmAction(signOutAction);
  const signOutEverywhere = useConfirmAction(signOutEverywhereAction);
  const pending = signOut.pending || signOutEverywhere.pending;

  return (
    <>
      <DropdownMenu defaultOpen={defaultOpen}>
        <DropdownMenuTrigger asChild>{trigger}</DropdownMenuTrigger>
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
              This ends every session of {email}: on this device and on every other browser or device where you are signed in. Each of them will need your
              password to sign in again.
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
