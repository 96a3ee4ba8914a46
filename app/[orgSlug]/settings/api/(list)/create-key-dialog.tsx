"use client";

import { Plus, TriangleAlert } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import { CopyButton } from "@/components/copy-button";
import { FormAlert } from "@/components/form-alert";
import { useActionForm } from "@/components/use-action-form";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
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
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { customExpiryBounds, KEY_EXPIRY_CHOICES, type KeyExpiryChoice } from "@/lib/key-expiry";
import { API_KEY_NAME_MAX, characterCount, genericNameWarning } from "@/lib/validation";
import { createApiKeyAction } from "../actions";

interface Created {
  name: string;
  value: string;
  expiresAt: string | null;
}

/** "Expires 2027-01-31 00:00 UTC" in the one-time dialog: the exact moment, the same on every screen. */
function expiryLine(expiresAt: string | null): string {
  if (!expiresAt) return "This key never expires.";
  return `This key expires ${expiresAt.slice(0, 10)} at ${expiresAt.slice(11, 16)} UTC.`;
}

export function CreateKeyDialog({ orgId }: { orgId: string }) {
  const [open, setOpen] = useState(false);
  const [name, setName] = useState("");
  const [expiresIn, setExpiresIn] = useState<KeyExpiryChoice>("never");
  const [created, setCreated] = useState<Created | null>(null);
  const [copiedConfirmed, setCopiedConfirmed] = useState(false);
  const [confirmClose, setConfirmClose] = useState(false);
  const { pending, onSubmit, error, fieldErrors } = useActionForm(createApiKeyAction, (data) => {
    setCreated({ name: data.key.name, value: data.value, expiresAt: data.key.expiresAt });
    toast.success(`Created “${data.key.name}”`);
  });

  const count = characterCount(name.trim());
  const warning = genericNameWarning(name);

  const reset = () => {
    setOpen(false);
    setConfirmClose(false);
    setCreated(null);
    setCopiedConfirmed(false);
    setName("");
    setExpiresIn("never");
  };
  const bounds = customExpiryBounds(new Date());

  const onOpenChange = (next: boolean) => {
    if (next) return setOpen(true);
    // Once the key is shown, leaving by Escape, the overlay or ✕ could lose it: ask first.
    if (created) return setConfirmClose(true);
    reset();
  };

  return (
    <>
      <Dialog open={open} onOpenChange={onOpenChange}>
        <DialogTrigger asChild>
          <Button>
            <Plus className="size-4" aria-hidden /> Create API key
          </Button>
        </DialogTrigger>
        <DialogContent className="sm:max-w-lg">
          {created ? (
            <>
              <DialogHeader>
                <DialogTitle>Save your API key</DialogTitle>
                <DialogDescription>
                  “{created.name}” is ready. Copy the key now and store it somewhere safe, such as your server&apos;s environment variables. {expiryLine(created.expiresAt)}
                </DialogDescription>
              </DialogHeader>
              <div className="space-y-2">
                <Label htmlFor="created-api-key">API key</Label>
                <div className="flex gap-2">
                  <Input id="created-api-key" readOnly value={created.value} className="font-mono text-sm" onFocus={(e) => e.currentTarget.select()} />
                  <CopyButton value={created.value} label="Copy" showLabel />
                </div>
              </div>
              <Alert variant="warning">
                <TriangleAlert className="size-4" aria-hidden />
                <AlertTitle>This key will not be shown again</AlertTitle>
                <AlertDescription>We store only a hash of it. If you lose it, revoke it and create a new one.</AlertDescription>
              </Alert>
              <div className="flex items-center gap-2">
                <Checkbox id="copied-confirmation" checked={copiedConfirmed} onCheckedChange={(checked) => setCopiedConfirmed(checked === true)} />
                <Label htmlFor="copied-confirmation" className="font-normal">
                  I have copied this key
                </Label>
              </div>
              <DialogFooter>
                <Button onClick={reset} disabled={!copiedConfirmed}>
                  Done
                </Button>
              </DialogFooter>
            </>
          ) : (
            <form onSubmit={onSubmit} noValidate className="space-y-4">
              <DialogHeader>
                <DialogTitle>Create API key</DialogTitle>
                <DialogDescription>Name the key after where it will be used, so you know what breaks if you revoke it.</DialogDescription>
              </DialogHeader>
              {error && !fieldErrors.name ? <FormAlert>{error}</FormAlert> : null}
              <input type="hidden" name="orgId" value={orgId} />
              <FormField
                label="Name"
                error={fieldErrors.name?.[0]}
                description={
                  <span className="flex justify-between gap-4">
                    <span className={warning ? "text-warning-foreground" : undefined} role={warning ? "status" : undefined}>
                      {warning ?? "For example “Production billing server”, “Staging” or “iOS app”."}
                    </span>
                    <span className={count > API_KEY_NAME_MAX ? "text-destructive tabular-nums" : "tabular-nums"} aria-live="polite">
                      {count}/{API_KEY_NAME_MAX}
                    </span>
                  </span>
                }
              >
                <Input name="name" value={name} onChange={(e) => setName(e.target.value)} autoComplete="off" autoFocus required placeholder="Production billing server" />
              </FormField>
              <div className="grid gap-4 sm:grid-cols-2">
                <div className="space-y-2">
                  <Label htmlFor="key-expiration">Expiration</Label>
                  <Select name="expiresIn" value={expiresIn} onValueChange={(value) => setExpiresIn(value as KeyExpiryChoice)}>
                    <SelectTrigger id="key-expiration" className="w-full" aria-describedby="key-expiration-description">
                      <SelectValue />
                    </SelectTrigger>
                    <SelectContent>
                      {KEY_EXPIRY_CHOICES.map((choice) => (
                        <SelectItem key={choice.value} value={choice.value}>
                          {choice.label}
                        </SelectItem>
                      ))}
                    </SelectContent>
                  </Select>
                  <p id="key-expiration-description" className="text-sm text-muted-foreground">
                    From then on, calls with the key are refused.
                  </p>
                </div>
                {expiresIn === "date" ? (
                  <FormField label="Expires at the end of (UTC)" error={fieldErrors.expiresOn?.[0]}>
                    <Input name="expiresOn" type="date" min={bounds.first} max={bounds.last} required />
                  </FormField>
                ) : null}
              </div>
              <DialogFooter>
                <Button type="button" variant="outline" onClick={reset}>
                  Cancel
                </Button>
                <Button type="submit" disabled={pending || count === 0}>
                  {pending ? "Creating…" : "Create key"}
                </Button>
              </DialogFooter>
            </form>
          )}
        </DialogContent>
      </Dialog>
      <AlertDialog open={confirmClose} onOpenChange={setConfirmClose}>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>Close without saving the key?</AlertDialogTitle>
            <AlertDialogDescription>You will not be able to see this API key again. If you have not copied it, you will have to revoke it and create another.</AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel>Keep it open</AlertDialogCancel>
            <AlertDialogAction onClick={reset}>Close anyway</AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </>
  );
}
