import { Check, Minus } from "lucide-react";
import type { ReactNode } from "react";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import type { KeyRestrictions } from "@/core/enums";
import { describeScopes, KEY_ACCESS_LABELS } from "@/lib/keys/access";

const SUMMARY = {
  full: "Every resource, read and write, as the organization's plan allows.",
  read_only: "GET requests on every resource: it cannot create, change or delete anything.",
  restricted: "Only what is listed below; anything else is refused with 403 api_key_scope_insufficient.",
} as const;

/** The key's access on its page (docs/features/restricted-keys.md): exactly what the key can do, per resource, and from where. */
export function KeyAccess({ apiKey, editor }: { apiKey: KeyRestrictions; editor: ReactNode }) {
  return (
    <Card>
      <CardHeader className="flex flex-wrap items-start justify-between gap-2">
        <div className="space-y-1.5">
          <CardTitle className="flex flex-wrap items-center gap-2 text-base">Access: {KEY_ACCESS_LABELS[apiKey.access]}</CardTitle>
          <CardDescription>{SUMMARY[apiKey.access]}</CardDescription>
        </div>
        {editor}
      </CardHeader>
      <CardContent className="grid gap-6 md:grid-cols-2">
        <dl aria-label="What this key can do" className="divide-y rounded-md border text-sm">
          {describeScopes(apiKey.access, apiKey.scopes).map((line) => (
            <div key={line.resource} className="flex items-center justify-between gap-4 px-3 py-2">
              <dt className="font-medium">{line.label}</dt>
              <dd className={line.can === "No access" ? "flex items-center gap-1.5 text-muted-foreground" : "flex items-center gap-1.5"}>
                {line.can === "No access" ? <Minus className="size-4" aria-hidden /> : <Check className="size-4 text-success" aria-hidden />}
                {line.can}
              </dd>
            </div>
          ))}
        </dl>
        <div className="space-y-2 text-sm">
          <p className="font-medium">IP allowlist</p>
          {apiKey.ipAllowlist.length > 0 ? (
            <>
              <ul aria-label="Allowed addresses" className="flex flex-wrap gap-1.5">
                {apiKey.ipAllowlist.map((entry) => (
                  <li key={entry}>
                    <code className="rounded bg-muted px-1.5 py-0.5 font-mono text-xs">{entry}</code>
                  </li>
                ))}
              </ul>
              <p className="text-muted-foreground">Calls from any other address are refused with 403 ip_not_allowed.</p>
            </>
          ) : (
            <p className="text-muted-foreground">Any address. Add an allowlist to accept calls only from your servers.</p>
          )}
        </div>
      </CardContent>
    </Card>
  );
}
