import { RefreshCw, ShieldAlert } from "lucide-react";
import Link from "next/link";
import type { ApiKeyDto } from "@/db/queries/api-keys";
import { ExpiryTime } from "@/components/expiry-time";
import { ModeBadge } from "@/components/mode-badge";
import { KeyStatusBadge } from "@/components/key-status-badge";
import { LastUse } from "@/components/last-use";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Card } from "@/components/ui/card";
import { KEY_MODE_LABELS } from "@/lib/keys/mode-labels";
import { outsidePolicyAdvice } from "@/lib/keys/policy";
import { REVOKE_REASONS } from "@/lib/keys/revoke-reasons";

export const calendarDay = (iso: string) => new Date(iso).toLocaleDateString("en-US", { month: "short", day: "numeric", year: "numeric", timeZone: "UTC" });

/**
 * A rolled key during its overlap (docs/features/api-keys.md#roll): when it stops, and whether clients still use it:
 * a use after the roll means some client has not switched to the new value yet.
 */
export function OverlapNotice({ orgSlug, apiKey, replacedBy }: { orgSlug: string; apiKey: ApiKeyDto; replacedBy: NonNullable<ApiKeyDto["replacedBy"]> }) {
  const usedSinceRoll = apiKey.lastUsedAt !== null && apiKey.lastUsedAt > replacedBy.at;
  return (
    <Alert variant="warning" role="status" aria-label="Rolled key">
      <RefreshCw aria-hidden />
      <AlertTitle>
        This key was rolled: it stops working <ExpiryTime expiresAt={apiKey.expiresAt} bare /> ({apiKey.expiresAt!.slice(0, 16).replace("T", " ")} UTC)
      </AlertTitle>
      <AlertDescription>
        <p>
          {usedSinceRoll ? (
            <>
              <LastUse apiKey={apiKey} prefix="Still used" />: your clients have not all switched yet.
            </>
          ) : (
            "Not used since the roll: your clients appear to have switched."
          )}{" "}
          <Link href={`/${orgSlug}/settings/api/keys/${replacedBy.id}`} className="font-medium underline">
            Open the new key
          </Link>
        </p>
      </AlertDescription>
    </Alert>
  );
}

/** A key in service that breaks the organization's key policy (`reason` says how): it keeps working until rolled. */
export function OutsidePolicyNotice({ orgSlug, reason, mayRoll }: { orgSlug: string; reason: string; mayRoll: boolean }) {
  return (
    <Alert variant="warning" role="status" aria-label="Outside key policy">
      <ShieldAlert aria-hidden />
      <AlertTitle>Outside your organization&apos;s key policy</AlertTitle>
      <AlertDescription>
        <p>
          {reason} {outsidePolicyAdvice(mayRoll)}{" "}
          <Link href={`/${orgSlug}/settings/api/policy`} className="font-medium underline">
            See the key policy
          </Link>
        </p>
      </AlertDescription>
    </Alert>
  );
}

export function KeyFacts({ orgSlug, apiKey }: { orgSlug: string; apiKey: ApiKeyDto }) {
  const facts: { label: string; value: React.ReactNode }[] = [
    { label: "Key", value: <code className="rounded bg-muted px-1.5 py-0.5 font-mono text-xs">{apiKey.hint}</code> },
    // The list marks only test keys; here, where every fact is named, a live key says so too.
    { label: "Mode", value: apiKey.mode === "test" ? <ModeBadge mode="test" /> : KEY_MODE_LABELS.live },
    { label: "Status", value: <KeyStatusBadge status={apiKey.status} /> },
    {
      label: "Created",
      value: (
        <>
          {calendarDay(apiKey.createdAt)} <span className="text-muted-foreground">by {apiKey.createdByName ?? "a deleted user"}</span>
        </>
      ),
    },
    { label: "Last used", value: <LastUse apiKey={apiKey} /> },
    { label: "Expires", value: <ExpiryTime expiresAt={apiKey.expiresAt} /> },
  ];
  // A roll links the two keys both ways.
  for (const [label, key] of [
    ["Replaced by", apiKey.replacedBy],
    ["Replaces", apiKey.replaces],
  ] as const) {
    if (!key) continue;
    facts.push({
      label,
      value: (
        <Link href={`/${orgSlug}/settings/api/keys/${key.id}`} className="font-medium break-words text-primary hover:underline">
          <code className="font-mono text-xs">{key.hint}</code>
        </Link>
      ),
    });
  }
  if (apiKey.revokedAt) {
    facts.push({
      label: "Revoked",
      value: (
        <>
          {calendarDay(apiKey.revokedAt)}{" "}
          <span className="text-muted-foreground">by {apiKey.revokedByName ?? (apiKey.revokeReason === "leaked" ? "secret scanning" : "a deleted user")}</span>
        </>
      ),
    });
    if (apiKey.revokeReason) {
      facts.push({
        label: "Reason",
        value: (
          <>
            {REVOKE_REASONS[apiKey.revokeReason]}
            {apiKey.revokeNote ? <span className="block text-muted-foreground break-words whitespace-pre-line">{apiKey.revokeNote}</span> : null}
          </>
        ),
      });
    }
  }
  return (
    <Card className="py-0">
      <dl className="grid grid-cols-2 gap-x-6 gap-y-4 p-4 sm:p-6 md:grid-cols-[repeat(auto-fit,minmax(9rem,1fr))]">
        {facts.map((fact) => (
          <div key={fact.label} className="min-w-0 space-y-1">
            <dt className="text-xs font-medium uppercase tracking-wide text-muted-foreground">{fact.label}</dt>
            <dd className="text-sm">{fact.value}</dd>
          </div>
        ))}
      </dl>
    </Card>
  );
}
