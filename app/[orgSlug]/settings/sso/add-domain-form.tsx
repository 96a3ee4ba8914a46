"use client";

import { Plus } from "lucide-react";
import { useRef } from "react";
import { toast } from "@/components/toast";
import { useActionForm } from "@/components/use-action-form";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { DOMAIN_MAX } from "@/lib/sso/domain-name";
import { addSsoDomainAction } from "./actions";

/** One domain added at a time; the field empties once it is added, and keeps what was typed when refused. */
export function AddDomainForm({ orgId, disabledReason }: { orgId: string; disabledReason: string | null }) {
  const form = useRef<HTMLFormElement>(null);
  const { pending, onSubmit, error, fieldErrors } = useActionForm(addSsoDomainAction, (data) => {
    toast.success("Domain added", { description: `Publish its TXT record, then verify ${data.domain}.` });
    form.current?.reset();
  });
  return (
    <form ref={form} onSubmit={onSubmit} className="flex flex-col gap-2 sm:flex-row sm:items-start" noValidate>
      <input type="hidden" name="orgId" value={orgId} />
      <FormField label="Domain" labelClassName="sr-only" className="flex-1" error={fieldErrors.domain?.[0] ?? error ?? undefined}>
        <Input name="domain" placeholder="example.com" maxLength={DOMAIN_MAX} autoComplete="off" spellCheck={false} disabled={disabledReason !== null} />
      </FormField>
      <Button type="submit" disabled={pending || disabledReason !== null} title={disabledReason ?? undefined}>
        <Plus className="size-4" aria-hidden /> {pending ? "Adding…" : "Add domain"}
      </Button>
    </form>
  );
}
