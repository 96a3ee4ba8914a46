"use client";

import { ShieldCheck } from "lucide-react";
import Link from "next/link";
import { useState } from "react";
import { toast } from "@/components/toast";
import { FormAlert } from "@/components/form-alert";
import { RelativeTime } from "@/components/relative-time";
import { useActionForm } from "@/components/use-action-form";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";
import { Checkbox } from "@/components/ui/checkbox";
import { FormField } from "@/components/ui/form-field";
import { Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { KEY_MAX_LIFETIME_DAYS, type KeyMaxLifetimeDays } from "@/core/enums";
import { describeKeyPolicy, keyOutsidePolicy, mustExpire, type KeyPolicy } from "@/lib/keys/policy";
import { onlyHoldersCan } from "@/lib/authz";
import { setKeyPolicyAction } from "./actions";

type PolicyKey = { status: string; replacedBy: boolean; createdAt: string; expiresAt: string | null };

const lifetimeLabel = (days: KeyMaxLifetimeDays | null) => (days === null ? "No maximum" : `${days} days`);

/** "2 of your 5 keys in service would be outside it": said before the owner saves. */
function outsideCount(policy: KeyPolicy, keys: PolicyKey[]): { outside: number; inService: number } {
  const inService = keys.filter((key) => key.status === "active" && !key.replacedBy);
  return { outside: inService.filter((key) => keyOutsidePolicy(policy, key) !== null).length, inService: inService.length };
}

function MaxLifetimeSelect({
  value,
  onValueChange,
  disabled,
  error,
}: {
  value: string;
  onValueChange: (value: string) => void;
  disabled: boolean;
  error: string | undefined;
}) {
  return (
    <Select name="maxLifetimeDays" value={value} onValueChange={onValueChange} disabled={disabled}>
      <FormField label="Maximum lifetime" className="max-w-xs" error={error} description="The longest a key may live from the day it is created (UTC).">
        <SelectTrigger className="w-full">
          <SelectValue />
        </SelectTrigger>
      </FormField>
      <SelectContent>
        {[null, ...KEY_MAX_LIFETIME_DAYS].map((days) => (
          <SelectItem key={days ?? "none"} value={days === null ? "none" : String(days)}>
            {lifetimeLabel(days)}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}

/** "New keys must expire": ticked and locked while a maximum lifetime implies it. */
function ExpiryRequiredField({ draft, canManage, onChange }: { draft: KeyPolicy; canManage: boolean; onChange: (required: boolean) => void }) {
  return (
    <div className="flex items-start gap-3">
      <Checkbox
        id="expiry-required"
        name="expiryRequired"
        checked={mustExpire(draft)}
        disabled={!canManage || draft.maxLifetimeDays !== null}
        onCheckedChange={(checked) => onChange(checked === true)}
        aria-describedby="expiry-required-description"
        className="mt-0.5"
      />
      <div className="grid gap-1">
        <Label htmlFor="expiry-required">New keys must expire</Label>
        <p id="expiry-required-description" className="text-sm text-muted-foreground">
          {draft.maxLifetimeDays !== null
            ? "Implied by the maximum lifetime."
            : mustExpire(draft)
              ? "“Never” is not offered when creating a key."
              : "When ticked, “Never” is no longer offered when creating a key."}
        </p>
      </div>
    </div>
  );
}

/** How the keys in service fit `policy`: the saved one, or while `proposed` the owner's unsaved draft. */
function KeysInServiceStatus({ orgSlug, policy, keys, proposed }: { orgSlug: string; policy: KeyPolicy; keys: PolicyKey[]; proposed: boolean }) {
  const { outside, inService } = outsideCount(policy, keys);
  return (
    <p role="status" className="rounded-md bg-muted px-3 py-2 text-sm">
      {inService === 0
        ? "No keys in service yet."
        : outside === 0
          ? `All ${inService} keys in service fit ${proposed ? "this" : "the"} policy.`
          : `${outside} of ${inService} keys in service ${proposed ? "would be" : "are"} outside ${proposed ? "this" : "the"} policy. They keep working, are marked in the list, and follow the policy once rolled.`}{" "}
      <Link href={`/${orgSlug}/settings/api`} className="font-medium text-primary hover:underline">
        See the keys
      </Link>
    </p>
  );
}

export function KeyPolicyForm({
  orgId,
  orgSlug,
  keyPolicy,
  canManage,
  keys,
  lastChange,
}: {
  orgId: string;
  orgSlug: string;
  keyPolicy: KeyPolicy;
  canManage: boolean;
  keys: PolicyKey[];
  lastChange: { at: string; byName: string | null } | null;
}) {
  const [maxLifetime, setMaxLifetime] = useState<string>(keyPolicy.maxLifetimeDays === null ? "none" : String(keyPolicy.maxLifetimeDays));
  // The box as the owner ticked it themselves. A saved maximum stores "must expire" as implied, so
  // whether the owner had also ticked it is unknown: it starts unticked, and choosing "No maximum"
  // shows the box unticked instead of keeping a requirement the owner never chose (docs/features/api-keys.md, "Key policy").
  const [expiryRequired, setExpiryRequired] = useState(keyPolicy.maxLifetimeDays === null && keyPolicy.expiryRequired);
  const draft: KeyPolicy = { maxLifetimeDays: maxLifetime === "none" ? null : (Number(maxLifetime) as KeyMaxLifetimeDays), expiryRequired };
  const unchanged = draft.maxLifetimeDays === keyPolicy.maxLifetimeDays && mustExpire(draft) === keyPolicy.expiryRequired;
  const { pending, onSubmit, error, fieldErrors } = useActionForm(setKeyPolicyAction, (saved) =>
    toast.success("Key policy saved", {
      description: `${describeKeyPolicy(saved) ?? "No policy: keys may be created without an expiry"}. It applies to keys created or rolled from now on.`,
    }),
  );
  const shown = canManage ? draft : keyPolicy;

  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2 text-base">
          <ShieldCheck className="size-4 text-primary" aria-hidden /> Rules for new keys
        </CardTitle>
        <CardDescription>Now: {describeKeyPolicy(keyPolicy) ?? "no policy, keys may be created without an expiry"}.</CardDescription>
      </CardHeader>
      <form onSubmit={onSubmit} noValidate>
        <CardContent className="space-y-5">
          {error && !fieldErrors.maxLifetimeDays ? <FormAlert>{error}</FormAlert> : null}
          <input type="hidden" name="orgId" value={orgId} />
          <MaxLifetimeSelect value={maxLifetime} onValueChange={setMaxLifetime} disabled={!canManage} error={fieldErrors.maxLifetimeDays?.[0]} />
          <ExpiryRequiredField draft={draft} canManage={canManage} onChange={setExpiryRequired} />
          <KeysInServiceStatus orgSlug={orgSlug} policy={shown} keys={keys} proposed={canManage && !unchanged} />
        </CardContent>
        <CardFooter className="mt-5 flex flex-wrap items-center justify-between gap-3">
          {lastChange ? (
            <p className="text-sm text-muted-foreground">
              Last changed <RelativeTime value={lastChange.at} /> by {lastChange.byName ?? "a former member"}.
            </p>
          ) : (
            <span />
          )}
          {canManage ? (
            <Button type="submit" disabled={pending || unchanged}>
              {pending ? "Saving…" : "Save policy"}
            </Button>
          ) : (
            <p className="text-sm text-muted-foreground">{onlyHoldersCan("keys.policy", "change the key policy")}</p>
          )}
        </CardFooter>
      </form>
    </Card>
  );
}
