"use client";

import { Plus } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import { FormAlert } from "@/components/form-alert";
import { KeyNameField } from "@/components/key-name-field";
import { OneTimeKeyDialog, type RevealedKey } from "@/components/one-time-key-dialog";
import { useActionForm } from "@/components/use-action-form";
import { Button } from "@/components/ui/button";
import { DialogClose, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { customExpiryBounds, KEY_EXPIRY_CHOICES, type KeyExpiryChoice } from "@/lib/key-expiry";
import { createApiKeyAction } from "../actions";

export function CreateKeyDialog({ orgId }: { orgId: string }) {
  return (
    <OneTimeKeyDialog
      trigger={
        <Button>
          <Plus className="size-4" aria-hidden /> Create API key
        </Button>
      }
      intro={(key) => <>“{key.name}” is ready.</>}
      form={(reveal) => <CreateKeyForm orgId={orgId} onCreated={reveal} />}
    />
  );
}

function CreateKeyForm({ orgId, onCreated }: { orgId: string; onCreated: (key: RevealedKey) => void }) {
  const [name, setName] = useState("");
  const [expiresIn, setExpiresIn] = useState<KeyExpiryChoice>("never");
  const { pending, onSubmit, error, fieldErrors } = useActionForm(createApiKeyAction, (data) => {
    onCreated({ name: data.key.name, value: data.value, expiresAt: data.key.expiresAt });
    toast.success(`Created “${data.key.name}”`);
  });
  const bounds = customExpiryBounds(new Date());

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <DialogHeader>
        <DialogTitle>Create API key</DialogTitle>
        <DialogDescription>Name the key after where it will be used, so you know what breaks if you revoke it.</DialogDescription>
      </DialogHeader>
      {error && !fieldErrors.name ? <FormAlert>{error}</FormAlert> : null}
      <input type="hidden" name="orgId" value={orgId} />
      <KeyNameField value={name} onChange={setName} error={fieldErrors.name?.[0]} />
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
        <DialogClose asChild>
          <Button type="button" variant="outline">
            Cancel
          </Button>
        </DialogClose>
        <Button type="submit" disabled={pending || name.trim() === ""}>
          {pending ? "Creating…" : "Create key"}
        </Button>
      </DialogFooter>
    </form>
  );
}
