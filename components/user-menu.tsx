"use client";

import { LogOut, MonitorSmartphone } from "lucide-react";
import { useState, useTransition } from "react";
import { signOutAction, signOutEverywhereAction } from "@/app/(auth)/actions";
import { FormAlert } from "@/components/form-alert";
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
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

function initials(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]!.toUpperCase())
    .join("");
}

export function UserMenu({ name, email }: { name: string; email: string }) {
  const [pending, startTransition] = useTransition();
  const [confirmOpen, setConfirmOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const shown = initials(name) || "?";

  const signOutEverywhere = () =>
    startTransition(async () => {
      // On success the action redirects to /signin; a result means it did not sign anything out.
      const result = await signOutEverywhereAction(null, {});
      if (!result.ok) setError(result.error);
    });

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
          <DropdownMenuItem disabled={pending} onSelect={() => startTransition(() => void signOutAction(null, {}))}>
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
          setError(null);
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
          {error ? <FormAlert>{error}</FormAlert> : null}
          <AlertDialogFooter>
            <AlertDialogCancel disabled={pending}>Cancel</AlertDialogCancel>
            <Button variant="destructive" onClick={signOutEverywhere} disabled={pending}>
              {pending ? "Signing out…" : "Sign out everywhere"}
            </Button>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </>
  );
}
