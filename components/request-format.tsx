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
  return (
    <span className="inline-flex min-w-0 items-center gap-1.5">
      <StatusCodeBadge status={request.status} />
      {request.errorCode ? (
        <span className="max-w-36 truncate font-mono text-[11px] text-muted-foreground" title={request.errorCode}>
          {request.errorCode}
        </span>
      ) : null}
    </span>
  );
}

/** The path as sent, query included; a link to the request's details when it has them. */
function RequestPath({ path, href }: { path: string; href?: string }) {
  return href ? (
    <Link prefetch={false} href={href} className="truncate font-mono text-xs text-primary hover:underline" title={`${path}: open the request's details`}>
      {path}
    </Link>
  ) : (
    <span className="truncate font-mono text-xs" title={path}>
      {path}
    </span>
  );
}

/** A request as a compact entry for phone-width lists, where a wide table would scroll sideways. */
function RequestListItem({ request, href, children }: { request: RequestSummary; href?: string; children?: React.ReactNode }) {
  return (
    <li className="space-y-1.5 px-4 py-3">
      <div className="flex min-w-0 items-center gap-2">
        <StatusWithCode request={request} />
        <MethodLabel method={request.method} />
        <RequestPath path={request.path} href={href} />
      </div>
      {children}
      <p className="flex flex-wrap gap-x-3 text-xs text-muted-foreground">
        <RequestTime iso={request.createdAt} />
        <span>{formatDuration(request.durationMs)}</span>
        {request.ip ? <span className="font-mono">{request.ip}</span> : null}
      </p>
    </li>
  );
}

/** The method, path, status and duration cells of a request's table row, in that order; the path links to `href`. */
function RequestCells({ request, href, lastClassName }: { request: RequestSummary; href?: string; lastClassName?: string }) {
  return (
    <>
      <TableCell>
        <MethodLabel method={request.method} />
      </TableCell>
      <TableCell>
        <div className="flex max-w-60 min-w-0">
          <RequestPath path={request.path} href={href} />
        </div>
      </TableCell>
      <TableCell>
        <StatusWithCode request={request} />
      </TableCell>
      <TableCell className={cn("text-right tabular-nums", lastClassName)}>{formatDuration(request.durationMs)}</TableCell>
    </>
  );
}

/**
 * Requests as a table from 640px up and, below, one compact entry each instead of a sideways
 * scroll (the audit log, a key's last calls). With `key`, a Key column, and what each entry shows
 * of the key. Each path links to `href` of its row, when that gives one.
 */
export function RequestRows<R extends RequestSummary & { id: string | number }>({
  label,
  rows,
  href,
  listClassName,
  keyColumn,
}: {
  label: string;
  rows: R[];
  href: (row: R) => string | undefined;
  listClassName?: string;
  keyColumn?: { cell: (row: R) => React.ReactNode; entry: (row: R) => React.ReactNode };
}) {
  return (
    <>
      <ul aria-label={label} className={cn("divide-y sm:hidden", listClassName)}>
        {rows.map((row) => (
          <RequestListItem key={row.id} request={row} href={href(row)}>
            {keyColumn?.entry(row)}
          </RequestListItem>
        ))}
      </ul>
      <Table aria-label={label} containerClassName="hidden sm:block">
        <TableHeader>
          <TableRow>
            <TableHead className="pl-6">Time (UTC)</TableHead>
            {keyColumn ? <TableHead>Key</TableHead> : null}
            <TableHead>Method</TableHead>
            <TableHead>Path</TableHead>
            <TableHead>Status</TableHead>
            <TableHead className="pr-6 text-right">Duration</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {rows.map((row) => (
            <TableRow key={row.id}>
              <TableCell className="pl-6">
                <RequestTime iso={row.createdAt} />
              </TableCell>
              {keyColumn ? <TableCell className="max-w-52">{keyColumn.cell(row)}</TableCell> : null}
              <RequestCells request={row} href={href(row)} lastClassName="pr-6" />
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </>
  );
}
