"use client";

import { useState, type ReactNode } from "react";
import { OneTimeSecret } from "@/components/one-time-secret";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from "@/components/ui/alert-dialog";
import { Button } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/checkbox";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from "@/components/ui/dialog";
import { Label } from "@/components/ui/label";
import type { Mode } from "@/core/enums";

/** A key value that the server has just minted and will never return again. */
export interface RevealedKey {
  name: string;
  mode: Mode;
  value: string;
  expiresAt: string | null;
}

/** "Expires 2027-01-31 00:00 UTC" in the one-time view: the exact moment, the same on every screen. */
function expiryLine(expiresAt: string | null): string {
  if (!expiresAt) return "This key never expires.";
  return `This key expires ${expiresAt.slice(0, 10)} at ${expiresAt.slice(11, 16)} UTC.`;
}

/**
 * The dialog that mints a key (create, roll): its form until the key exists, then the value shown
 * once (docs/features/api-keys.md#creating-a-key) with a copy button and "I have copied this key" before Done. Once the value is
 * shown, leaving by Escape, the overlay or ✕ asks first. `form` gets `reveal` for its action's
 * success; the form is mounted afresh at each opening, so no earlier attempt greets the next one.
 */
export function OneTimeKeyDialog({
  trigger,
  form,
  intro,
  onClosed,
}: {
  /**
   * The button that opens it; null once the page no longer offers the action (a rolled key cannot
   * roll again) while a value may still be on screen: the dialog stays mounted so it is not lost.
   */
  trigger: ReactNode | null;
  form: (reveal: (key: RevealedKey) => void) => ReactNode;
  /** What the revealed view says first, e.g. "“Staging” is ready." */
  intro: (key: RevealedKey) => ReactNode;
  /** Once the dialog that showed `key` is closed. */
  onClosed?: (key: RevealedKey) => void;
}) {
  const [open, setOpen] = useState(false);
  const [opening, setOpening] = useState(0);
  const [revealed, setRevealed] = useState<RevealedKey | null>(null);
  const [confirmClose, setConfirmClose] = useState(false);

  const close = () => {
    setOpen(false);
    setConfirmClose(false);
    setRevealed(null);
    if (revealed) onClosed?.(revealed);
  };
  const onOpenChange = (next: boolean) => {
    if (next) {
      setOpening((n) => n + 1);
      return setOpen(true);
    }
    if (revealed) return setConfirmClose(true);
    close();
  };

  return (
    <>
      <Dialog open={open} onOpenChange={onOpenChange}>
        {trigger ? <DialogTrigger asChild>{trigger}</DialogTrigger> : null}
        <DialogContent className="sm:max-w-lg">
          {revealed ? (
            <RevealedKeyView revealed={revealed} intro={intro} onDone={close} />
          ) : (
            <div key={opening} className="contents">
              {form(setRevealed)}
            </div>
          )}
        </DialogContent>
      </Dialog>
      <AlertDialog open={confirmClose} onOpenChange={setConfirmClose}>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>Close without saving the key?</AlertDialogTitle>
            <AlertDialogDescription>
              You will not be able to see this API key again. If you have not copied it, you will have to revoke it and create another.
            </AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel>Keep it open</AlertDialogCancel>
            <AlertDialogAction onClick={close}>Close anyway</AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </>
  );
}

/** The key's value, shown once; Done only once the person says they copied it (the box starts unticked at each reveal). */
function RevealedKeyView({ revealed, intro, onDone }: { revealed: RevealedKey; intro: (key: RevealedKey) => ReactNode; onDone: () => void }) {
  const [copiedConfirmed, setCopiedConfirmed] = useState(false);
  return (
    <>
      <DialogHeader>
        <DialogTitle>Save your API key</DialogTitle>
        <DialogDescription>
          {intro(revealed)} Copy the key now and store it somewhere safe, such as your server&apos;s environment variables. {expiryLine(revealed.expiresAt)}
        </DialogDescription>
      </DialogHeader>
      <OneTimeSecret id="created-api-key" label="API key" value={revealed.value} warning="This key will not be shown again">
        We store only a hash of it. If you lose it, revoke it and create a new one.
      </OneTimeSecret>
      <div className="flex items-center gap-2">
        <Checkbox id="copied-confirmation" checked={copiedConfirmed} onCheckedChange={(checked) => setCopiedConfirmed(checked === true)} />
        <Label htmlFor="copied-confirmation" className="font-normal">
          I have copied this key
        </Label>
      </div>
      <DialogFooter>
        <Button onClick={onDone} disabled={!copiedConfirmed}>
          Done
        </Button>
      </DialogFooter>
    </>
  );
}
