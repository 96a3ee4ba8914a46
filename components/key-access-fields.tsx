"use client";

import { useId, useState } from "react";
import { RadioCard } from "@/components/radio-card";
import { FormField } from "@/components/ui/form-field";
import { Label } from "@/components/ui/label";
import { RadioGroup, RadioGroupItem } from "@/components/ui/radio-group";
import { Textarea } from "@/components/ui/textarea";
import { API_RESOURCE_NAMES, API_RESOURCES, IP_ALLOWLIST_MAX, type ApiResource, type KeyAccess, type KeyRestrictions, type KeyScopes } from "@/core/enums";
import { KEY_ACCESS_LABELS, PERMISSION_LABELS } from "@/lib/keys/access";
import { allowlistCount, parseAllowlist } from "@/lib/keys/ip-allowlist";
import { scopeField } from "@/lib/keys/input";

const ACCESS_HELP: Record<KeyAccess, string> = {
  full: "Every resource, read and write.",
  read_only: "GET requests on every resource; it cannot change anything.",
  restricted: "Only the permissions you choose below, per resource.",
};

type FieldErrors = Partial<Record<string, string[]>>;

const FIELDS = ["access", "ipAllowlist", ...API_RESOURCE_NAMES.map(scopeField)];

/** Whether a refusal is shown on one of these fields (the dialog then needs no message above the form). */
export function accessFieldsShowError(fieldErrors: FieldErrors): boolean {
  return FIELDS.some((field) => fieldErrors[field]?.length);
}

/**
 * The restricted-key fields of the create and edit dialogs: the access (full, read only, restricted with a
 * permission per resource) and the IP allowlist, checked as it is typed with the rules the server
 * applies (lib/keys/ip-allowlist.ts).
 */
export function KeyAccessFields({ initial, fieldErrors }: { initial?: KeyRestrictions; fieldErrors: FieldErrors }) {
  const id = useId();
  const [access, setAccess] = useState<KeyAccess>(initial?.access ?? "full");
  const [scopes, setScopes] = useState<KeyScopes>(initial?.scopes ?? {});
  const [allowlist, setAllowlist] = useState(initial?.ipAllowlist.join("\n") ?? "");
  const [checked, setChecked] = useState(false);
  const parsed = parseAllowlist(allowlist);
  const typedError = checked && !parsed.ok ? parsed.messages.join(" ") : null;
  const count = allowlistCount(allowlist);
  const accessError = fieldErrors.access?.[0] ?? API_RESOURCE_NAMES.map((resource) => fieldErrors[scopeField(resource)]?.[0]).find(Boolean);

  return (
    <div className="grid gap-4">
      <fieldset className="grid gap-3" aria-describedby={accessError ? `${id}-access-error` : undefined}>
        <legend className="mb-2 text-sm font-medium">Access</legend>
        <RadioGroup
          name="access"
          value={access}
          onValueChange={(value) => setAccess(value as KeyAccess)}
          className="gap-2"
          aria-invalid={accessError ? true : undefined}
        >
          {(Object.keys(KEY_ACCESS_LABELS) as KeyAccess[]).map((choice) => (
            <RadioCard
              key={choice}
              id={`${id}-access-${choice}`}
              value={choice}
              label={KEY_ACCESS_LABELS[choice]}
              description={ACCESS_HELP[choice]}
              selected={access === choice}
            />
          ))}
        </RadioGroup>
        {access === "restricted" ? <ScopeGrid scopes={scopes} onChange={setScopes} /> : null}
        {accessError ? (
          <p id={`${id}-access-error`} role="alert" className="text-sm font-medium text-destructive">
            {accessError}
          </p>
        ) : null}
      </fieldset>
      <FormField
        label="IP allowlist (optional)"
        error={typedError ?? fieldErrors.ipAllowlist?.join(" ")}
        description={
          count
            ? `${count} Calls from any other address are refused with 403 ip_not_allowed.`
            : `One IPv4 or IPv6 address or CIDR range per line, up to ${IP_ALLOWLIST_MAX}. Leave it empty to allow any address.`
        }
      >
        <Textarea
          name="ipAllowlist"
          rows={3}
          value={allowlist}
          onChange={(event) => setAllowlist(event.target.value)}
          onBlur={() => setChecked(true)}
          placeholder={"203.0.113.10\n2001:db8::/32"}
          spellCheck={false}
          autoCapitalize="off"
          autoCorrect="off"
          className="font-mono text-sm"
        />
      </FormField>
    </div>
  );
}

/**
 * One row per resource: none, then its permissions, lowest first, each rank in a column of its own
 * width so the choices line up from row to row (below sm the resource's name goes above its choices).
 */
function ScopeGrid({ scopes, onChange }: { scopes: KeyScopes; onChange: (scopes: KeyScopes) => void }) {
  const id = useId();
  return (
    <div className="grid gap-1 rounded-md border p-3" role="group" aria-label="Permissions per resource">
      {API_RESOURCE_NAMES.map((resource: ApiResource) => {
        const choices = ["none", ...API_RESOURCES[resource].permissions] as const;
        const current = scopes[resource] ?? "none";
        return (
          <div key={resource} className="grid gap-x-4 gap-y-1.5 py-1 sm:grid-cols-[minmax(0,1fr)_auto] sm:items-center">
            <span id={`${id}-${resource}`} className="text-sm font-medium">
              {API_RESOURCES[resource].label}
            </span>
            <RadioGroup
              name={scopeField(resource)}
              value={current}
              onValueChange={(value) => onChange({ ...scopes, [resource]: value === "none" ? undefined : value })}
              orientation="horizontal"
              aria-labelledby={`${id}-${resource}`}
              className="grid-cols-3 gap-x-2 sm:grid-cols-[repeat(3,5.5rem)]"
            >
              {choices.map((choice) => (
                <Label key={choice} htmlFor={`${id}-${resource}-${choice}`} className="flex cursor-pointer items-center gap-1.5 font-normal">
                  <RadioGroupItem id={`${id}-${resource}-${choice}`} value={choice} />
                  {PERMISSION_LABELS[choice]}
                </Label>
              ))}
            </RadioGroup>
          </div>
        );
      })}
    </div>
  );
}
