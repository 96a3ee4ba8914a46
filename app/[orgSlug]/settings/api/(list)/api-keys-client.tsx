"use client";

import {
  createColumnHelper,
  createSortedRowModel,
  rowSortingFeature,
  sortFn_alphanumeric,
  sortFn_datetime,
  tableFeatures,
  useTable,
  type SortingState,
} from "@tanstack/react-table";
import { KeyRound } from "lucide-react";
import Link from "next/link";
import { useSearchParams } from "next/navigation";
import { useMemo, useState } from "react";
import type { ApiKeyDto } from "@/db/queries/api-keys";
import { DataTableHeader } from "@/components/data-table-header";
import { DataTableRows } from "@/components/data-table-rows";
import { EmptyState } from "@/components/empty-state";
import { ExpiryTime } from "@/components/expiry-time";
import { Badge } from "@/components/ui/badge";
import { RelativeTime } from "@/components/relative-time";
import { KeyAccessBadges } from "@/components/key-access-badges";
import { KeyStatusBadge } from "@/components/key-status-badge";
import { Card } from "@/components/ui/card";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { Table, TableBody, TableCell, TableHeader, TableRow } from "@/components/ui/table";
import { Tooltip, TooltipContent, TooltipTrigger } from "@/components/ui/tooltip";
import { keyOutsidePolicy, outsidePolicyAdvice, type KeyPolicy } from "@/lib/keys/policy";
import { deniedMessage } from "@/lib/authz";
import { RevokeKeyDialog } from "../revoke-key-dialog";

const DAY_MS = 86_400_000;

const EXPIRING_WITHIN_DAYS = 7;
const UNUSED_FOR_DAYS = 30;

/** The key list's status filter. "Unused" keys are active ones with no call for UNUSED_FOR_DAYS (never used: since creation). */
const STATUS_FILTERS = {
  active: { label: "Active", matches: (key: ApiKeyDto) => key.status === "active" },
  expiring: { label: `Expiring within ${EXPIRING_WITHIN_DAYS} days`, matches: (key: ApiKeyDto, now: number) => key.status === "active" && key.expiresAt !== null && Date.parse(key.expiresAt) - now <= EXPIRING_WITHIN_DAYS * DAY_MS },
  expired: { label: "Expired", matches: (key: ApiKeyDto) => key.status === "expired" },
  revoked: { label: "Revoked", matches: (key: ApiKeyDto) => key.status === "revoked" },
  unused: { label: `Unused for ${UNUSED_FOR_DAYS} days`, matches: (key: ApiKeyDto, now: number) => key.status === "active" && now - Date.parse(key.lastUsedAt ?? key.createdAt) >= UNUSED_FOR_DAYS * DAY_MS },
  all: { label: "All keys", matches: () => true },
} satisfies Record<string, { label: string; matches: (key: ApiKeyDto, now: number) => boolean }>;
type StatusFilter = keyof typeof STATUS_FILTERS;
const DEFAULT_STATUS: StatusFilter = "active";

/** The filter of the URL's `?status=` (so a filtered list can be shared and survives a reload); Active when absent or unknown. */
const statusOf = (param: string | null): StatusFilter => (param !== null && Object.hasOwn(STATUS_FILTERS, param) ? (param as StatusFilter) : DEFAULT_STATUS);


/** A key created before the policy, and what to do about it (on hover and keyboard focus). */
function OutsidePolicyBadge({ breach, canRoll }: { breach: string | null; canRoll: boolean }) {
  if (!breach) return null;
  return (
    <Tooltip>
      <TooltipTrigger asChild>
        <Badge variant="warning" tabIndex={0} className="cursor-default font-normal">
          Outside key policy
        </Badge>
      </TooltipTrigger>
      <TooltipContent className="max-w-64">
        {breach} {outsidePolicyAdvice(canRoll)}
      </TooltipContent>
    </Tooltip>
  );
}

const features = tableFeatures({
  rowSortingFeature,
  sortedRowModel: createSortedRowModel(),
  sortFns: { alphanumeric: sortFn_alphanumeric, datetime: sortFn_datetime },
});
const helper = createColumnHelper<typeof features, ApiKeyDto>();
const number = new Intl.NumberFormat("en-US");

export function ApiKeysClient({
  orgId,
  orgSlug,
  keys,
  keyPolicy,
  canCreate,
  canRevoke,
  canRoll,
  noApiAccess,
  renderedAt,
}: {
  orgId: string;
  orgSlug: string;
  keys: ApiKeyDto[];
  keyPolicy: KeyPolicy;
  canCreate: boolean;
  canRevoke: boolean;
  canRoll: boolean;
  noApiAccess: boolean;
  /** When the server rendered the page: the time-based filters of a URL compare with it, on the server and in hydration alike. */
  renderedAt: number;
}) {
  // The filter lives in the URL; the moment it was chosen (or the page rendered) is what the
  // time-based ones compare with, so rendering stays pure and hydration never reads a clock.
  const searchParams = useSearchParams();
  const status = statusOf(searchParams.get("status"));
  const [chosenAt, setChosenAt] = useState(renderedAt);
  const chooseStatus = (value: StatusFilter) => {
    setChosenAt(Date.now());
    const params = new URLSearchParams(searchParams);
    if (value === DEFAULT_STATUS) params.delete("status");
    else params.set("status", value);
    // Next's router follows pushState (useSearchParams updates) without asking the server again.
    window.history.pushState(null, "", params.size > 0 ? `?${params}` : window.location.pathname);
  };
  const [sorting, setSorting] = useState<SortingState>([{ id: "createdAt", desc: true }]);
  const visible = useMemo(() => keys.filter((key) => STATUS_FILTERS[status].matches(key, chosenAt)), [keys, status, chosenAt]);

  const columns = useMemo(
    () =>
      helper.columns([
        helper.accessor("name", {
          header: "Name",
          sortFn: "alphanumeric",
          cell: (info) => (
            // No prefetch: every visible row would render its key's page (and read its usage) on each visit.
            <span className="inline-flex max-w-56 flex-col items-start gap-1">
              <Link prefetch={false} href={`/${orgSlug}/settings/api/keys/${info.row.original.id}`} className="font-medium whitespace-normal break-words hover:underline">
                {info.getValue()}
              </Link>
              {info.row.original.replacedBy && info.row.original.status === "active" ? (
                <Badge variant="outline" className="font-normal">
                  Rolled: old value
                </Badge>
              ) : null}
              <OutsidePolicyBadge breach={keyOutsidePolicy(keyPolicy, info.row.original)} canRoll={canRoll} />
              <KeyAccessBadges apiKey={info.row.original} />
            </span>
          ),
        }),
        helper.accessor("hint", {
          header: "Key",
          enableSorting: false,
          cell: (info) => <code className="rounded bg-muted px-1.5 py-0.5 font-mono text-xs">{info.getValue()}</code>,
        }),
        helper.accessor("createdByName", { header: "Created by", sortFn: "alphanumeric", cell: (info) => info.getValue() ?? "Deleted user" }),
        helper.accessor((key) => new Date(key.createdAt), { id: "createdAt", header: "Created", sortFn: "datetime", cell: (info) => <RelativeTime value={info.row.original.createdAt} /> }),
        helper.accessor((key) => (key.lastUsedAt ? new Date(key.lastUsedAt) : undefined), {
          id: "lastUsedAt",
          header: "Last used",
          sortFn: "datetime",
          sortUndefined: "last",
          cell: (info) => <RelativeTime value={info.row.original.lastUsedAt} fallback="Never used" />,
        }),
        helper.accessor((key) => (key.expiresAt ? new Date(key.expiresAt) : undefined), {
          id: "expiresAt",
          header: "Expires",
          sortFn: "datetime",
          sortUndefined: "last",
          cell: (info) => <ExpiryTime expiresAt={info.row.original.expiresAt} />,
        }),
        helper.accessor("requestsLast30Days", {
          header: "Requests, 30 d",
          cell: (info) => <span className="tabular-nums">{number.format(info.getValue())}</span>,
        }),
        helper.accessor("status", { header: "Status", cell: (info) => <KeyStatusBadge status={info.getValue()} /> }),
        helper.display({
          id: "actions",
          header: () => <span className="sr-only">Actions</span>,
          cell: (info) =>
            canRevoke && info.row.original.status !== "revoked" ? <RevokeKeyDialog orgId={orgId} apiKey={info.row.original} /> : null,
        }),
      ]),
    [orgId, orgSlug, canRevoke, canRoll, keyPolicy],
  );

  const table = useTable({ features, columns, data: visible, state: { sorting }, onSortingChange: setSorting }, (state) => state);

  if (keys.length === 0) {
    return (
      <Card>
        <EmptyState
          icon={<KeyRound className="size-6" aria-hidden />}
          title="No API keys yet"
          description={
            noApiAccess
              ? "Your plan has no API access. An owner can switch to Trial, Pro or Enterprise on the Plan page."
              : canCreate
                ? "Create your first key with “Create API key”, name it after where it will be used, and copy it into that server's environment."
                : `${deniedMessage("keys.create")} Ask one of them to create a key for your integration.`
          }
        />
      </Card>
    );
  }

  return (
    <Card className="gap-0 overflow-hidden py-0">
      <div className="flex flex-wrap items-center justify-between gap-3 border-b px-4 py-3">
        <p className="text-sm text-muted-foreground">
          {visible.length} {visible.length === 1 ? "key" : "keys"}
        </p>
        <Select value={status} onValueChange={(value) => chooseStatus(value as StatusFilter)}>
          <SelectTrigger className="w-52" aria-label="Filter by status">
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            {Object.entries(STATUS_FILTERS).map(([value, { label }]) => (
              <SelectItem key={value} value={value}>
                {label}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </div>
      <Table>
        <TableHeader>
          <DataTableHeader groups={table.getHeaderGroups()} />
        </TableHeader>
        <TableBody>
          {table.getRowModel().rows.length === 0 ? (
            <TableRow>
              <TableCell colSpan={columns.length} className="h-24 text-center text-muted-foreground">
                No keys match “{STATUS_FILTERS[status].label}”. {status === "active" ? "Choose “All keys” to see expired and revoked ones." : ""}
              </TableCell>
            </TableRow>
          ) : (
            <DataTableRows rows={table.getRowModel().rows} stateOf={(key) => key.status} />
          )}
        </TableBody>
      </Table>
    </Card>
  );
}
