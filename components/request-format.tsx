import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { cn } from "@/lib/utils";

const STATUS_VARIANT = { 2: "success", 3: "secondary", 4: "warning", 5: "destructive" } as const;

/** An HTTP status code, coloured by its class so errors stand out in a long list. */
export function StatusCodeBadge({ status }: { status: number }) {
  const variant = STATUS_VARIANT[Math.floor(status / 100) as keyof typeof STATUS_VARIANT] ?? "outline";
  return (
    <Badge variant={variant} className="font-mono tabular-nums">
      {status}
    </Badge>
  );
}

const METHOD_COLOUR: Record<string, string> = {
  GET: "text-sky-700 dark:text-sky-400",
  POST: "text-emerald-700 dark:text-emerald-400",
  PUT: "text-amber-700 dark:text-amber-400",
  PATCH: "text-amber-700 dark:text-amber-400",
  DELETE: "text-rose-700 dark:text-rose-400",
};

export function MethodLabel({ method, className }: { method: string; className?: string }) {
  return <span className={cn("font-mono text-xs font-semibold", METHOD_COLOUR[method] ?? "text-muted-foreground", className)}>{method}</span>;
}

/** "2026-11-23 14:05:12" in UTC: the same on the server and in every viewer's browser. */
function formatUtcTime(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}`;
}

export function formatDuration(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}

/** A request's time: UTC, with the exact instant on hover and for screen readers. */
export function RequestTime({ iso }: { iso: string }) {
  return (
    <time dateTime={iso} title={iso} className="whitespace-nowrap font-mono text-xs tabular-nums">
      {formatUtcTime(iso)}
    </time>
  );
}

interface RequestSummary {
  createdAt: string;
  method: string;
  path: string;
  status: number;
  /** The API's error code of a refusal, shown beside its status. */
  errorCode?: string | null;
  durationMs: number;
  ip?: string | null;
}

/** The status, and for a refusal its error code ("403 ip_not_allowed"). */
function StatusWithCode({ request }: { request: RequestSummary }) {
  // Most rows have no code: their badge alone, one element fewer per row of a long page.
  if (!request.errorCode) return <StatusCodeBadge status={request.status} />;
  return (
    <span className="inline-flex min-w-0 items-center gap-1.5">
      <StatusCodeBadge status={request.status} />
      <span className="max-w-36 truncate font-mono text-[11px] text-muted-foreground" title={request.errorCode}>
        {request.errorCode}
      </span>
    </span>
  );
}

/** The path as sent, query included; a link to the request's details when it has them. */
function RequestPath({ path, href }: { path: string; href?: string }) {
  return href ? (
    <Link
      prefetch={false}
      href={href}
      className="block truncate font-mono text-xs text-primary hover:underline sm:max-w-60"
      title={`${path}: open the request's details`}
    >
      {path}
    </Link>
  ) : (
    <span className="block truncate font-mono text-xs sm:max-w-60" title={path}>
      {path}
    </span>
  );
}

/**
 * Requests as one table (the audit log, a key's last calls): columns from 640px up and, below, each
 * row drawn as a compact entry by the `request-table` rules in app/globals.css, instead of a
 * sideways scroll. One markup for both widths keeps the page's document and hydration at half
 * (docs/decisions/0068-one-markup-for-request-rows.md). With `keyColumn`, a Key column. Each path
 * links to `href` of its row, when that gives one.
 */
export function RequestRows<R extends RequestSummary & { id: string | number }>({
  label,
  rows,
  href,
  keyColumn,
}: {
  label: string;
  rows: R[];
  href: (row: R) => string | undefined;
  keyColumn?: (row: R) => React.ReactNode;
}) {
  return (
    <Table aria-label={label} className="request-table">
      <TableHeader>
        <TableRow>
          <TableHead className="rq-time">Time (UTC)</TableHead>
          {keyColumn ? <TableHead>Key</TableHead> : null}
          <TableHead>Method</TableHead>
          <TableHead>Path</TableHead>
          <TableHead>Status</TableHead>
          <TableHead className="rq-duration">Duration</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {rows.map((row) => (
          <TableRow key={row.id}>
            <TableCell className="rq-time">
              <RequestTime iso={row.createdAt} />
            </TableCell>
            {keyColumn ? <TableCell className="rq-key">{keyColumn(row)}</TableCell> : null}
            <TableCell className="rq-method">
              <MethodLabel method={row.method} />
            </TableCell>
            <TableCell className="rq-path">
              <RequestPath path={row.path} href={href(row)} />
            </TableCell>
            <TableCell className="rq-status">
              <StatusWithCode request={row} />
            </TableCell>
            <TableCell className="rq-duration">{formatDuration(row.durationMs)}</TableCell>
            {row.ip ? <TableCell className="rq-ip">{row.ip}</TableCell> : null}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
