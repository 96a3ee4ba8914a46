import { KeyRound } from "lucide-react";
import Link from "next/link";
import type { ApiKeyDto } from "@/db/queries/api-keys";
import { EmptyState } from "@/components/empty-state";
import { ExpiryTime } from "@/components/expiry-time";
import { KeyAccessBadges } from "@/components/key-access-badges";
import { ModeBadge } from "@/components/mode-badge";
import { KeyStatusBadge } from "@/components/key-status-badge";
import { RelativeTime } from "@/components/relative-time";
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { Table, TableActionsHead, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { KEY_SORTS, KEY_STATUS_FILTERS, keyListQuery, keysInView, nextKeyOrder, type KeyListView, type KeySortColumn } from "@/lib/keys/list-view";
import { keyOutsidePolicy, type KeyPolicy } from "@/lib/keys/policy";
import { RevokeKeyDialog, type RevokableKey } from "../revoke-key-dialog";
import { KeyStatusSelect } from "./key-status-select";
import { OutsidePolicyBadge } from "./outside-policy-badge";
import { SortableHead } from "./sortable-head";

const number = new Intl.NumberFormat("en-US");
/** The Revoke column stays in view while a narrow screen scrolls the table sideways. */
const STICKY_END = "sticky right-0 bg-card";

/**
 * The organization's keys, drawn on the server: filtering and ordering are links and a select that
 * change the URL, and only the controls (the filter, each Revoke, the badges' explanations) load
 * JavaScript (docs/decisions/0062-first-click.md).
 */
export function KeyTable({
  orgId,
  orgSlug,
  keys,
  view,
  now,
  keyPolicy,
  canRevoke,
  canRoll,
}: {
  orgId: string;
  orgSlug: string;
  keys: ApiKeyDto[];
  view: KeyListView;
  /** The request's moment, which the time-based filters compare with. */
  now: number;
  keyPolicy: KeyPolicy;
  canRevoke: boolean;
  canRoll: boolean;
}) {
  const visible = keysInView(keys, view, now);
  const head = (column: KeySortColumn, className?: string) => (
    <SortableHead
      label={KEY_SORTS[column].label}
      href={`/${orgSlug}/settings/api${keyListQuery({ ...view, order: nextKeyOrder(view.order, column) })}`}
      sorted={view.order.column === column ? (view.order.descending ? "descending" : "ascending") : null}
      className={className}
    />
  );
  return (
    <Card className="gap-0 overflow-hidden py-0">
      <div className="flex flex-wrap items-center justify-between gap-3 border-b px-4 py-3">
        <p className="text-sm text-muted-foreground">
          {visible.length} {visible.length === 1 ? "key" : "keys"}
        </p>
        <KeyStatusSelect status={view.status} />
      </div>
      <Table>
        <TableHeader>
          <TableRow>
            {head("name")}
            <TableHead>Key</TableHead>
            {head("created")}
            {head("lastUsed")}
            {head("expires")}
            {head("requests")}
            {head("status")}
            <TableActionsHead className={STICKY_END} />
          </TableRow>
        </TableHeader>
        <TableBody>
          {visible.length === 0 ? (
            <TableRow>
              <TableCell colSpan={8} className="h-24 text-center text-muted-foreground">
                No keys match “{KEY_STATUS_FILTERS[view.status].label}”. {view.status === "active" ? "Choose “All keys” to see expired and revoked ones." : ""}
              </TableCell>
            </TableRow>
          ) : (
            visible.map((key) => (
              <KeyRow key={key.id} orgId={orgId} orgSlug={orgSlug} apiKey={key} keyPolicy={keyPolicy} canRevoke={canRevoke} canRoll={canRoll} />
            ))
          )}
        </TableBody>
      </Table>
    </Card>
  );
}

/** What the Revoke dialog shows of a key: only this travels to the browser with each row. */
const revokable = ({ id, name, hint, lastUsedAt, lastUsedIp, lastUsedEndpoint }: ApiKeyDto): RevokableKey => ({
  id,
  name,
  hint,
  lastUsedAt,
  lastUsedIp,
  lastUsedEndpoint,
});

/** One key's row: its name and badges, value hint, times, use, status and Revoke. */
function KeyRow({
  orgId,
  orgSlug,
  apiKey,
  keyPolicy,
  canRevoke,
  canRoll,
}: {
  orgId: string;
  orgSlug: string;
  apiKey: ApiKeyDto;
  keyPolicy: KeyPolicy;
  canRevoke: boolean;
  canRoll: boolean;
}) {
  return (
    <TableRow data-state={apiKey.status}>
      <TableCell>
        <span className="inline-flex max-w-56 flex-col items-start gap-1">
          {/* No prefetch: every visible row would render its key's page (and read its usage) on each visit. */}
          <Link prefetch={false} href={`/${orgSlug}/settings/api/keys/${apiKey.id}`} className="font-medium whitespace-normal break-words hover:underline">
            {apiKey.name}
          </Link>
          <ModeBadge mode={apiKey.mode} />
          {apiKey.replacedBy && apiKey.status === "active" ? (
            <Badge variant="outline" className="font-normal">
              Rolled: old value
            </Badge>
          ) : null}
          <OutsidePolicyBadge breach={keyOutsidePolicy(keyPolicy, apiKey)} canRoll={canRoll} />
          <KeyAccessBadges apiKey={apiKey} />
        </span>
      </TableCell>
      <TableCell>
        <code className="rounded bg-muted px-1.5 py-0.5 font-mono text-xs">{apiKey.hint}</code>
      </TableCell>
      <TableCell>
        <span className="flex flex-col">
          <RelativeTime value={apiKey.createdAt} />
          <span className="text-xs text-muted-foreground">by {apiKey.createdByName ?? "a deleted user"}</span>
        </span>
      </TableCell>
      <TableCell>
        <RelativeTime value={apiKey.lastUsedAt} fallback="Never used" />
      </TableCell>
      <TableCell>
        <ExpiryTime expiresAt={apiKey.expiresAt} />
      </TableCell>
      <TableCell className="tabular-nums">{number.format(apiKey.requestsLast30Days)}</TableCell>
      <TableCell>
        <KeyStatusBadge status={apiKey.status} />
      </TableCell>
      <TableCell className={STICKY_END}>
        {canRevoke && apiKey.status !== "revoked" ? <RevokeKeyDialog orgId={orgId} apiKey={revokable(apiKey)} /> : null}
      </TableCell>
    </TableRow>
  );
}

/** No keys at all: what to do next, by what the person may do. */
export function NoKeys({ message }: { message: string }) {
  return (
    <Card>
      <EmptyState icon={<KeyRound className="size-6" aria-hidden />} title="No API keys yet" description={message} />
    </Card>
  );
}
