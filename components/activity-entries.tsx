import {
  ArrowRight,
  BadgeCheck,
  BellRing,
  Bot,
  Send,
  Webhook,
  Waves,
  Pause,
  Play,
  Trash2,
  CalendarX,
  CreditCard,
  Fingerprint,
  FlaskConical,
  Gauge,
  Globe,
  KeyRound,
  LockKeyhole,
  LogIn,
  MailPlus,
  MailX,
  PencilLine,
  RefreshCw,
  ShieldAlert,
  ShieldCheck,
  ShieldOff,
  Smartphone,
  Sparkles,
  Unplug,
  UserCheck,
  UserCog,
  UserMinus,
} from "lucide-react";
import Link from "next/link";
import type { ActivityEntryDto } from "@/db/queries/activity";
import { RelativeTime } from "@/components/relative-time";
import { KEY_ENDING_ACTIONS, type ActivityAction } from "@/core/activity";
import { activityLabel, fieldChanges, type FieldChange } from "@/lib/activity";
import { cn } from "@/lib/utils";

const ICONS: Record<ActivityAction, typeof KeyRound> = {
  "organization.created": Sparkles,
  "api_key.created": KeyRound,
  "api_key.renamed": PencilLine,
  "api_key.restrictions_changed": LockKeyhole,
  "api_key.budget_changed": Gauge,
  "api_key.rolled": RefreshCw,
  "api_key.revoked": ShieldOff,
  "api_key.leaked": ShieldAlert,
  "api_key.expired": CalendarX,
  "plan.changed": CreditCard,
  "rate_limit.changed": Gauge,
  "key_policy.changed": ShieldCheck,
  "alert_settings.changed": BellRing,
  "webhook_endpoint.created": Webhook,
  "webhook_endpoint.enabled": Webhook,
  "webhook_endpoint.disabled": Webhook,
  "webhook_endpoint.secret_rotated": RefreshCw,
  "webhook_endpoint.deleted": Webhook,
  "webhook_endpoint.test_sent": Send,
  "webhook_delivery.resent": Send,
  "log_stream.created": Waves,
  "log_stream.paused": Pause,
  "log_stream.resumed": Play,
  "log_stream.deleted": Trash2,
  "log_stream.test_sent": Send,
  "invitation.created": MailPlus,
  "invitation.revoked": MailX,
  "member.joined": UserCheck,
  "member.role_changed": UserCog,
  "member.removed": UserMinus,
  "member.left": UserMinus,
  "two_factor.totp_added": Smartphone,
  "two_factor.totp_removed": ShieldOff,
  "two_factor.passkey_added": Fingerprint,
  "two_factor.passkey_removed": ShieldOff,
  "two_factor.recovery_codes_renewed": RefreshCw,
  "two_factor.requirement_changed": ShieldCheck,
  "leaked_key_response.changed": ShieldAlert,
  "sso_connection.saved": LogIn,
  "sso_connection.removed": Unplug,
  "sso_connection.requirement_changed": ShieldCheck,
  "sso_domain.added": Globe,
  "sso_domain.verified": BadgeCheck,
  "sso_domain.removed": Trash2,
  "test_data.deleted": FlaskConical,
};

const ENDING = new Set<string>(KEY_ENDING_ACTIONS);

function Actor({ entry }: { entry: ActivityEntryDto }) {
  if (entry.actorKind === "system") {
    return (
      <span className="inline-flex items-center gap-1 font-medium">
        <Bot className="size-3.5" aria-hidden /> System
      </span>
    );
  }
  return <span className="font-medium">{entry.actorName ?? "A deleted user"}</span>;
}

function Target({ orgSlug, entry, linkKeys }: { orgSlug: string; entry: ActivityEntryDto; linkKeys: boolean }) {
  if (entry.targetType !== "api_key" || !linkKeys) return <span className="font-medium break-words">{entry.targetName}</span>;
  return (
    <Link prefetch={false} href={`/${orgSlug}/settings/api/keys/${entry.targetId}`} className="font-medium break-words hover:underline">
      {entry.targetName}
    </Link>
  );
}

/** Each changed field's value before and after. */
function FieldChanges({ changes }: { changes: FieldChange[] }) {
  return (
    <dl className="flex flex-wrap gap-x-4 gap-y-0.5 text-xs">
      {changes.map((change) => (
        <div key={change.field} className="flex min-w-0 gap-1">
          <dt className="text-muted-foreground">{change.label}:</dt>
          {/* pre-line: a revoke note keeps the lines it was written in, as on the key's page. */}
          <dd className="min-w-0 break-words whitespace-pre-line">
            {change.before !== null && change.after !== null ? (
              <>
                <span className="text-muted-foreground line-through decoration-muted-foreground/50">{change.before}</span> → {change.after}
              </>
            ) : change.field === "leakedAt" && change.after?.startsWith("https://") ? (
              // Where a scanner found a key (docs/security.md#leaked-keys-and-secret-scanning): a public page, opened without our referrer.
              <a href={change.after} target="_blank" rel="noopener noreferrer nofollow" className="break-all text-primary underline-offset-4 hover:underline">
                {change.after}
              </a>
            ) : (
              (change.after ?? change.before)
            )}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** Who made the change, when, and from which address and browser. */
function Byline({ entry }: { entry: ActivityEntryDto }) {
  return (
    <p className="flex flex-wrap items-center gap-x-2 gap-y-0.5 text-xs text-muted-foreground">
      <span>
        by <Actor entry={entry} />
      </span>
      <span aria-hidden>·</span>
      <RelativeTime value={entry.createdAt} />
      {entry.ip ? (
        <>
          <span aria-hidden>·</span>
          <span className="font-mono">{entry.ip}</span>
        </>
      ) : null}
      {entry.userAgent ? (
        <>
          <span aria-hidden>·</span>
          <span className="max-w-64 truncate" title={entry.userAgent}>
            {entry.userAgent}
          </span>
        </>
      ) : null}
    </p>
  );
}

/**
 * A list of history entries, newest first: what happened to what, who did it from where and
 * when, and each field's value before and after. A key's entries link to its requests.
 */
export function ActivityEntries({
  orgSlug,
  entries,
  label,
  linkKeys = true,
}: {
  orgSlug: string;
  entries: ActivityEntryDto[];
  label: string;
  linkKeys?: boolean;
}) {
  return (
    <ol aria-label={label} className="divide-y">
      {entries.map((entry) => {
        const Icon = ICONS[entry.action as ActivityAction] ?? KeyRound;
        const changes = fieldChanges(entry.before, entry.after);
        return (
          <li key={entry.id} className="flex gap-3 px-4 py-3.5 sm:px-6" aria-label={`${activityLabel(entry.action)}: ${entry.targetName}`}>
            <span
              className={cn(
                "mt-0.5 flex size-8 shrink-0 items-center justify-center rounded-full bg-accent text-accent-foreground",
                ENDING.has(entry.action) && "bg-destructive/10 text-destructive",
              )}
              aria-hidden
            >
              <Icon className="size-4" />
            </span>
            <div className="min-w-0 flex-1 space-y-1">
              <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
                <p className="min-w-0 text-sm">
                  <span className="font-semibold">{activityLabel(entry.action)}</span>
                  <span className="text-muted-foreground"> · </span>
                  <Target orgSlug={orgSlug} entry={entry} linkKeys={linkKeys} />
                </p>
                {entry.targetType === "api_key" ? (
                  <Link
                    prefetch={false}
                    href={`/${orgSlug}/settings/api/audit?key=${encodeURIComponent(entry.targetId)}`}
                    className="inline-flex items-center gap-1 text-xs font-medium text-muted-foreground hover:text-foreground hover:underline"
                  >
                    Requests of this key <ArrowRight className="size-3" aria-hidden />
                  </Link>
                ) : null}
              </div>
              {changes.length > 0 ? <FieldChanges changes={changes} /> : null}
              <Byline entry={entry} />
            </div>
          </li>
        );
      })}
    </ol>
  );
}
