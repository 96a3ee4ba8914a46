import Link from "next/link";
import type { AuditLogRowDto } from "@/db/queries/audit-log";
import type { KeyEndingDto } from "@/db/queries/activity";
import { RequestRows } from "@/components/request-format";
import { Badge } from "@/components/ui/badge";
import { activitySearchParams } from "@/lib/activity-filters";
import { requestHref } from "@/lib/audit-filters";

// The audit log's rows, for its page (rendered on the server) and its live tail (loaded when Live
// is turned on) alike: no server-only part.

/** The history entry that ended each key of the shown refused (401) rows, by key id. */
export type KeyEndings = Record<string, KeyEndingDto>;

function KeyName({ orgSlug, row }: { orgSlug: string; row: AuditLogRowDto }) {
  return (
    <Link
      prefetch={false}
      href={`/${orgSlug}/settings/api/keys/${row.keyId}`}
      className="block min-w-0 truncate font-medium hover:underline"
      title={row.keyName ?? row.keyId}
    >
      {row.keyName ?? "Deleted key"}
    </Link>
  );
}

/**
 * A request refused because its key had ended links to the history entry that ended it (docs/features/activity-history.md);
 * other requests of a revoked key just say so.
 */
function KeyEndBadge({ orgSlug, row, ending }: { orgSlug: string; row: AuditLogRowDto; ending: KeyEndingDto | null | undefined }) {
  if (row.status === 401 && ending && ending.at <= row.createdAt) {
    const href = `/${orgSlug}/settings/api/activity?${activitySearchParams({ key: row.keyId, action: ending.action })}`;
    return (
      <Badge variant="warning" className="px-1.5 py-0" asChild>
        <Link prefetch={false} href={href}>
          {ending.action === "api_key.revoked" ? "Refused: key revoked" : "Refused: key expired"}
        </Link>
      </Badge>
    );
  }
  return row.keyRevoked ? (
    <Badge variant="secondary" className="px-1.5 py-0">
      Revoked
    </Badge>
  ) : null;
}

/** The key a request was made with: its name (linked), its hint, and whether it had ended. */
export function RequestKey({ orgSlug, row, ending }: { orgSlug: string; row: AuditLogRowDto; ending: KeyEndingDto | null | undefined }) {
  return (
    <>
      <KeyName orgSlug={orgSlug} row={row} />
      <div className="flex flex-wrap items-center gap-1.5">
        <code className="font-mono text-xs text-muted-foreground">{row.keyHint}</code>
        <KeyEndBadge orgSlug={orgSlug} row={row} ending={ending} />
      </div>
    </>
  );
}

export interface AuditRowsProps {
  orgSlug: string;
  rows: AuditLogRowDto[];
  endings: KeyEndings;
}

/** The requests, with the key of each; the user agent and the rest are on each request's details page. */
export function AuditRows({ orgSlug, rows, endings }: AuditRowsProps) {
  return (
    <RequestRows
      label="API requests"
      rows={rows}
      href={(row) => requestHref(orgSlug, row.requestId, row.keyMode)}
      keyColumn={(row) => <RequestKey orgSlug={orgSlug} row={row} ending={endings[row.keyId]} />}
    />
  );
}
