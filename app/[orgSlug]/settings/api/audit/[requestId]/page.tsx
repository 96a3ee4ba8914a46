import { ArrowLeft } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import type { RequestDetailsDto } from "@/db/queries/request-details";
import type { KeyEndingDto } from "@/db/queries/activity";
import { CopyButton } from "@/components/copy-button";
import { PageHeader } from "@/components/page-header";
import { formatDuration, MethodLabel, RequestTime, StatusCodeBadge } from "@/components/request-format";
import { RelativeTime } from "@/components/relative-time";
import { RequestSearch } from "@/components/request-search";
import { Badge } from "@/components/ui/badge";
import { viewModeOf, withMode } from "@/lib/view-mode";
import { EmptyState } from "@/components/empty-state";
import { FlaskConical } from "lucide-react";
import type { Mode } from "@/core/enums";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { auditSearchParams } from "@/lib/audit-filters";
import { DETAIL_RETENTION_DAYS } from "@/core/request-log";
import { RequestKey } from "../audit-rows";
import { bodySize } from "./body-size";
import { requireRequest } from "./load-request";

export const metadata: Metadata = { title: "Request details" };

export default async function RequestDetailsPage({
  params,
  searchParams,
}: {
  params: Promise<{ orgSlug: string; requestId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const [{ orgSlug, requestId }, query] = await Promise.all([params, searchParams]);
  const { request, ending } = await requireRequest(orgSlug, requestId);
  const base = `/${orgSlug}/settings/api/audit`;
  const mode = request.keyMode ?? "live";
  // Each mode shows its own traffic (docs/features/test-mode.md#traffic): a request of the other mode says where it is.
  if (mode !== viewModeOf(query)) return <OtherModeRequest base={base} requestId={request.requestId} mode={mode} />;
  return (
    <div className="space-y-6">
      <PageHeader
        title={
          <span className="flex min-w-0 flex-wrap items-center gap-x-3 gap-y-1">
            <MethodLabel method={request.method} className="text-2xl" />
            <span className="min-w-0 font-mono text-xl break-all">{request.path}</span>
          </span>
        }
        description={
          <span className="flex flex-wrap items-center gap-2">
            <StatusCodeBadge status={request.status} />
            {request.keyMode === "test" ? <Badge variant="warning">Test mode</Badge> : null}
            {request.errorCode ? <code className="font-mono text-xs">{request.errorCode}</code> : null}
            <span aria-hidden>·</span>
            <RelativeTime value={request.createdAt} />
          </span>
        }
        actions={<RequestSearch base={base} className="w-full sm:w-80" />}
      >
        <Link
          href={withMode(base, request.keyMode ?? "live")}
          className="inline-flex w-fit items-center gap-1.5 text-sm text-muted-foreground hover:text-foreground"
        >
          <ArrowLeft className="size-4" aria-hidden /> Audit log
        </Link>
      </PageHeader>
      {request.errorMessage ? <ErrorMessage message={request.errorMessage} details={validationDetails(request.responseBody)} /> : null}
      <RequestFacts orgSlug={orgSlug} request={request} ending={ending} />
      <div className="grid items-start gap-6 lg:grid-cols-2">
        <BodyCard title="Request body" body={request.requestBody} bytes={request.requestBodyBytes} request={request} />
        <BodyCard title="Response body" body={request.responseBody} bytes={request.responseBodyBytes} request={request} />
      </div>
    </div>
  );
}

/** The `details` of a validation error's body: which field was wrong and why. */
function validationDetails(responseBody: string | null): { path: string; message: string }[] {
  try {
    const details = (JSON.parse(responseBody ?? "") as { error?: { details?: unknown } }).error?.details;
    if (!Array.isArray(details)) return [];
    return details.filter((detail): detail is { path: string; message: string } => typeof detail?.path === "string" && typeof detail?.message === "string");
  } catch {
    return [];
  }
}

function ErrorMessage({ message, details }: { message: string; details: { path: string; message: string }[] }) {
  return (
    <Card className="border-destructive/30 bg-destructive/5 py-4" role="note" aria-label="Error message">
      <CardContent className="space-y-2 px-4 sm:px-6">
        <p className="text-xs font-medium tracking-wide text-muted-foreground uppercase">Error message</p>
        <p className="text-sm break-words">{message}</p>
        {details.length > 0 ? (
          <ul aria-label="Validation errors" className="space-y-1 text-sm">
            {details.map((detail, i) => (
              <li key={i} className="flex flex-wrap gap-x-2 break-words">
                <code className="font-mono text-xs font-semibold">{detail.path}</code>
                <span>{detail.message}</span>
              </li>
            ))}
          </ul>
        ) : null}
      </CardContent>
    </Card>
  );
}

/** An id in full (cut with an ellipsis where the column is narrow) beside its copy button. */
function CopyableId({ value, label }: { value: string; label: string }) {
  return (
    <span className="flex min-w-0 items-center gap-1">
      <code className="truncate font-mono text-xs" title={value}>
        {value}
      </code>
      <CopyButton value={value} label={label} variant="ghost" size="icon-sm" />
    </span>
  );
}

function RequestFacts({ orgSlug, request, ending }: { orgSlug: string; request: RequestDetailsDto; ending: KeyEndingDto | null }) {
  const keyRequests = `/${orgSlug}/settings/api/audit?${auditSearchParams({ key: request.keyId })}`;
  const facts: { label: string; value: React.ReactNode; wide?: boolean }[] = [
    { label: "Request ID", value: <CopyableId value={request.requestId} label="Copy request ID" /> },
    {
      label: "Trace ID",
      value: request.traceId ? <CopyableId value={request.traceId} label="Copy trace ID" /> : <span className="text-muted-foreground">Not recorded</span>,
    },
    { label: "Time (UTC)", value: <RequestTime iso={request.createdAt} /> },
    {
      label: "Key",
      value: (
        <span className="flex min-w-0 flex-col gap-1">
          <RequestKey orgSlug={orgSlug} row={request} ending={ending} />
          <Link href={keyRequests} className="text-xs text-primary hover:underline">
            This key&apos;s requests
          </Link>
        </span>
      ),
    },
    { label: "Endpoint", value: <code className="font-mono text-xs break-all">{request.endpoint}</code> },
    { label: "Duration", value: <span className="tabular-nums">{formatDuration(request.durationMs)}</span> },
    { label: "Client IP", value: <code className="font-mono text-xs">{request.ip ?? "—"}</code> },
    {
      label: "Idempotency-Key",
      value: request.idempotencyKey ? (
        <span className="flex min-w-0 flex-wrap items-center gap-1.5">
          <code className="font-mono text-xs break-all">{request.idempotencyKey}</code>
          {request.replayed ? <Badge variant="secondary">Replayed</Badge> : <Badge variant="outline">First answer</Badge>}
        </span>
      ) : (
        <span className="text-muted-foreground">None sent</span>
      ),
    },
    { label: "User agent", value: <span className="font-mono text-xs break-all">{request.userAgent ?? "—"}</span>, wide: true },
  ];
  return (
    <Card className="py-0">
      <dl className="grid grid-cols-1 gap-x-6 gap-y-4 p-4 sm:grid-cols-2 sm:p-6 lg:grid-cols-4">
        {facts.map((fact) => (
          <div key={fact.label} className={fact.wide ? "min-w-0 space-y-1 sm:col-span-2 lg:col-span-4" : "min-w-0 space-y-1"}>
            <dt className="text-xs font-medium tracking-wide text-muted-foreground uppercase">{fact.label}</dt>
            <dd className="text-sm">{fact.value}</dd>
          </div>
        ))}
      </dl>
    </Card>
  );
}

/** JSON indented when the whole body was kept and parses; anything else as it was sent. */
function readable(body: string, whole: boolean): string {
  if (!whole) return body;
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

/** Why a body is not shown: a success keeps none, failures keep theirs 30 days, some requests have none. */
function missingBody(title: string, request: RequestDetailsDto): string {
  if (request.status < 400) return "Bodies are kept for requests answered 4xx or 5xx only.";
  if (!request.hasDetail) return `Bodies are kept ${DETAIL_RETENTION_DAYS} days: this request's are gone.`;
  return title === "Request body" ? "The request had no body." : "The answer had no body.";
}

function BodyCard({ title, body, bytes, request }: { title: string; body: string | null; bytes: number | null; request: RequestDetailsDto }) {
  const { cut, label } = bodySize(bytes);
  return (
    <Card className="min-w-0 gap-3">
      <CardHeader className="flex flex-row items-start justify-between gap-2">
        <div className="space-y-1">
          <CardTitle className="text-base">{title}</CardTitle>
          <CardDescription>{body === null ? missingBody(title, request) : label}</CardDescription>
        </div>
        {body ? <CopyButton value={body} label={`Copy ${title.toLowerCase()}`} size="sm" /> : null}
      </CardHeader>
      {body ? (
        <CardContent>
          <pre
            aria-label={title}
            className="max-h-[28rem] overflow-auto rounded-md bg-muted p-3 font-mono text-xs leading-relaxed whitespace-pre-wrap break-all"
          >
            {readable(body, !cut)}
          </pre>
        </CardContent>
      ) : null}
    </Card>
  );
}

/** A request opened in the other mode: where it can be seen, rather than its details. */
function OtherModeRequest({ base, requestId, mode }: { base: string; requestId: string; mode: Mode }) {
  return (
    <Card>
      <EmptyState
        icon={<FlaskConical aria-hidden />}
        title={`This is a ${mode} request`}
        description={`${requestId} was made with a ${mode} key, and ${mode} traffic is shown in ${mode} mode only.`}
      >
        <Link href={withMode(`${base}/${requestId}`, mode)} className="text-sm font-medium text-primary hover:underline">
          View it in {mode} mode
        </Link>
      </EmptyState>
    </Card>
  );
}
