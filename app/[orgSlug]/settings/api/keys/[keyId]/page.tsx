import { ArrowLeft, ArrowRight, RefreshCw, ShieldAlert } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import type { ApiKeyDto } from "@/db/queries/api-keys";
import type { Plan } from "@/db/enums";
import { getKeyUsage, listRecentCalls, type KeyUsageDto, type RecentCallDto } from "@/db/queries/key-usage";
import { listActivity, type ActivityPageDto } from "@/db/queries/activity";
import { getKeyPolicy } from "@/db/queries/organizations";
import { ActivityEntries } from "@/components/activity-entries";
import { ExpiryTime } from "@/components/expiry-time";
import { KeyStatusBadge } from "@/components/key-status-badge";
import { NoRequests } from "@/components/no-requests";
import { PageHeader } from "@/components/page-header";
import { LastUse } from "@/components/last-use";
import { MethodLabel, RequestCells, RequestListItem, RequestTime, StatusCodeBadge } from "@/components/request-format";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { activitySearchParams } from "@/lib/activity-filters";
import { auditSearchParams } from "@/lib/audit-filters";
import { can } from "@/lib/authz";
import { describeKeyPolicy, keyOutsidePolicy, outsidePolicyAdvice } from "@/lib/key-policy";
import { publicBaseUrl } from "@/lib/base-url";
import { PLANS } from "@/lib/plans";
import { REVOKE_REASONS } from "@/lib/revoke-reasons";
import { RevokeKeyDialog } from "../../revoke-key-dialog";
import { RollKeyDialog } from "../../roll-key-dialog";
import { findKey } from "./find-key";
import { EditAccessDialog } from "./edit-access-dialog";
import { KeyAccess } from "./key-access";
import { RenameKeyDialog } from "./rename-key-dialog";
import { DailyRequestsChart, StatusCodesChart } from "./key-usage-charts";

export const metadata: Metadata = { title: "API key usage" };

const number = new Intl.NumberFormat("en-US");
const KEY_HISTORY_ENTRIES = 20;
const percent = new Intl.NumberFormat("en-US", { style: "percent", maximumFractionDigits: 1 });
// A single call among thousands is not "0%".
const share = (fraction: number) => (fraction > 0 && fraction < 0.001 ? "<0.1%" : percent.format(fraction));
const calendarDay = (iso: string) => new Date(iso).toLocaleDateString("en-US", { month: "short", day: "numeric", year: "numeric", timeZone: "UTC" });

export default async function KeyDetailsPage({ params }: { params: Promise<{ orgSlug: string; keyId: string }> }) {
  const { orgSlug, keyId } = await params;
  const { membership, apiKey } = await findKey(orgSlug, keyId);
  const mayReadHistory = can(membership.role, "activity.view");
  const [usage, calls, baseUrl, history, keyPolicy] = await Promise.all([
    getKeyUsage(membership.orgId, keyId),
    listRecentCalls(membership.orgId, keyId),
    publicBaseUrl(),
    mayReadHistory ? listActivity(membership.orgId, { key: keyId }, { pageSize: KEY_HISTORY_ENTRIES }) : null,
    getKeyPolicy(membership.orgId),
  ]);
  const outsidePolicy = keyOutsidePolicy(keyPolicy, apiKey);
  // An expired key can still be revoked: a revocation records that a person ended it.
  const canRevoke = can(membership.role, "keys.revoke") && apiKey.status !== "revoked";
  // A revoked key keeps its name, so its history and requests read as they happened.
  const canRename = can(membership.role, "keys.rename") && apiKey.status !== "revoked";
  const canRestrict = can(membership.role, "keys.restrict") && apiKey.status !== "revoked";
  const mayRoll = can(membership.role, "keys.roll") && apiKey.status !== "revoked" && PLANS[membership.plan].apiAccess;
  const canRoll = mayRoll && apiKey.status === "active" && !apiKey.replacedBy;
  const auditHref = can(membership.role, "audit.view") ? `/${orgSlug}/settings/api/audit?${auditSearchParams({ key: apiKey.id })}` : null;

  return (
    <div className="space-y-6">
      <PageHeader
        title={apiKey.name}
        description={`Usage over the last 30 days (UTC), ${calendarDay(usage.from)} to ${calendarDay(usage.to)}, today included.`}
        actions={
          canRename || mayRoll || canRevoke ? (
            <>
              {canRename ? <RenameKeyDialog orgId={membership.orgId} apiKey={apiKey} /> : null}
              {mayRoll ? <RollKeyDialog orgId={membership.orgId} apiKey={apiKey} rollable={canRoll} policyLifetime={outsidePolicy ? describeKeyPolicy(keyPolicy) : null} /> : null}
              {canRevoke ? <RevokeKeyDialog orgId={membership.orgId} apiKey={apiKey} size="default" /> : null}
            </>
          ) : null
        }
      >
        <Link href={`/${orgSlug}/settings/api`} className="inline-flex w-fit items-center gap-1.5 text-sm text-muted-foreground hover:text-foreground">
          <ArrowLeft className="size-4" aria-hidden /> API keys
        </Link>
      </PageHeader>
      {apiKey.replacedBy && apiKey.status === "active" ? <OverlapNotice orgSlug={orgSlug} apiKey={apiKey} replacedBy={apiKey.replacedBy} /> : null}
      {outsidePolicy ? (
        <Alert variant="warning" role="status" aria-label="Outside key policy">
          <ShieldAlert aria-hidden />
          <AlertTitle>Outside your organization&apos;s key policy</AlertTitle>
          <AlertDescription>
            <p>
              {outsidePolicy} {outsidePolicyAdvice(can(membership.role, "keys.roll"))}{" "}
              <Link href={`/${orgSlug}/settings/api/policy`} className="font-medium underline">
                See the key policy
              </Link>
            </p>
          </AlertDescription>
        </Alert>
      ) : null}
      <KeyFacts orgSlug={orgSlug} apiKey={apiKey} />
      <KeyAccess apiKey={apiKey} editor={canRestrict ? <EditAccessDialog orgId={membership.orgId} apiKey={apiKey} /> : null} />
      {usage.total === 0 ? (
        <NoRequests
          title="No requests in the last 30 days"
          description={noRequestsAdvice(apiKey, membership.plan)}
          baseUrl={apiKey.status === "active" && PLANS[membership.plan].apiAccess ? baseUrl : null}
          quickstartTitle="Make your first call with this key"
        />
      ) : (
        <>
          <UsageSummary usage={usage} />
          <Card>
            <CardHeader>
              <CardTitle className="text-base">Daily requests</CardTitle>
              <CardDescription>All 30 days, stacked by status class. Days without requests stay empty.</CardDescription>
            </CardHeader>
            <CardContent>
              <DailyRequestsChart daily={usage.daily} />
            </CardContent>
          </Card>
          <StatusCodes usage={usage} />
          <TopEndpoints usage={usage} />
        </>
      )}
      {calls.length > 0 ? <RecentCalls calls={calls} auditHref={auditHref} /> : null}
      {history ? <KeyHistory orgSlug={orgSlug} keyId={keyId} history={history} /> : null}
    </div>
  );
}

function KeyHistory({ orgSlug, keyId, history }: { orgSlug: string; keyId: string; history: ActivityPageDto }) {
  return (
    <Card id="history" className="gap-0 overflow-hidden pb-0">
      <CardHeader className="flex flex-wrap items-start justify-between gap-2 pb-4">
        <div className="space-y-1.5">
          <CardTitle className="text-base">History</CardTitle>
          <CardDescription>Who changed this key, and when.</CardDescription>
        </div>
        {history.older ? (
          <Link href={`/${orgSlug}/settings/api/activity?${activitySearchParams({ key: keyId })}`} className="inline-flex items-center gap-1 text-sm font-medium text-primary hover:underline">
            All of this key&apos;s history <ArrowRight className="size-4" aria-hidden />
          </Link>
        ) : null}
      </CardHeader>
      <div className="border-t">
        {history.rows.length > 0 ? (
          <ActivityEntries orgSlug={orgSlug} entries={history.rows} label="History of this key" linkKeys={false} />
        ) : (
          <p className="px-6 py-8 text-center text-sm text-muted-foreground">No changes recorded for this key yet.</p>
        )}
      </div>
    </Card>
  );
}

function noRequestsAdvice(apiKey: ApiKeyDto, plan: Plan): string {
  if (apiKey.status === "revoked") return "This key is revoked, so it cannot make calls any more. Its older history stays in the audit log.";
  if (apiKey.status === "expired") return "This key has expired, so calls with it are refused with 401 api_key_expired. Create a new key for the clients that used it.";
  if (!PLANS[plan].apiAccess) return `The ${PLANS[plan].label} plan has no API access, so calls with this key are refused. An owner can change the plan on the Plan page.`;
  return "Here is how to make your first call: send this key in the X-API-Key header, as in the example below. Requests show up here within seconds.";
}

/**
 * A rolled key during its overlap (SPEC §7): when it stops, and whether clients still use it:
 * a use after the roll means some client has not switched to the new value yet.
 */
function OverlapNotice({ orgSlug, apiKey, replacedBy }: { orgSlug: string; apiKey: ApiKeyDto; replacedBy: NonNullable<ApiKeyDto["replacedBy"]> }) {
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

function KeyFacts({ orgSlug, apiKey }: { orgSlug: string; apiKey: ApiKeyDto }) {
  const facts: { label: string; value: React.ReactNode }[] = [
    { label: "Key", value: <code className="rounded bg-muted px-1.5 py-0.5 font-mono text-xs">{apiKey.hint}</code> },
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
  for (const [label, key] of [["Replaced by", apiKey.replacedBy], ["Replaces", apiKey.replaces]] as const) {
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
          {calendarDay(apiKey.revokedAt)} <span className="text-muted-foreground">by {apiKey.revokedByName ?? "a deleted user"}</span>
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

function UsageSummary({ usage }: { usage: KeyUsageDto }) {
  const ofTotal = (count: number) => `${share(count / usage.total)} of requests`;
  const tiles = [
    { label: "Total requests", value: usage.total, note: "Last 30 days" },
    { label: "Successful (2xx)", value: usage.byClass["2xx"], note: ofTotal(usage.byClass["2xx"]) },
    { label: "Client errors (4xx)", value: usage.byClass["4xx"], note: ofTotal(usage.byClass["4xx"]) },
    { label: "Server errors (5xx)", value: usage.byClass["5xx"], note: ofTotal(usage.byClass["5xx"]) },
  ];
  return (
    <div className="grid grid-cols-2 gap-4 lg:grid-cols-4">
      {tiles.map((tile) => (
        <Card key={tile.label} className="gap-1 px-4 py-4 sm:px-6">
          <p className="text-xs font-medium uppercase tracking-wide text-muted-foreground">{tile.label}</p>
          <p className="text-2xl font-semibold tabular-nums">{number.format(tile.value)}</p>
          <p className="text-xs text-muted-foreground">{tile.note}</p>
        </Card>
      ))}
    </div>
  );
}

function StatusCodes({ usage }: { usage: KeyUsageDto }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-base">Status codes</CardTitle>
        <CardDescription>How the API answered this key.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6 md:grid-cols-2 md:items-start">
        <StatusCodesChart statuses={usage.statuses} />
        <Table aria-label="Requests per status code" containerClassName="min-w-0">
          <TableHeader>
            <TableRow>
              <TableHead>Status</TableHead>
              <TableHead className="text-right">Requests</TableHead>
              <TableHead className="text-right">Share</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {usage.statuses.map((row) => (
              <TableRow key={row.status}>
                <TableCell>
                  <StatusCodeBadge status={row.status} />
                </TableCell>
                <TableCell className="text-right tabular-nums">{number.format(row.count)}</TableCell>
                <TableCell className="text-right tabular-nums text-muted-foreground">{share(row.share)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </CardContent>
    </Card>
  );
}

function TopEndpoints({ usage }: { usage: KeyUsageDto }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-base">Most accessed endpoints</CardTitle>
        <CardDescription>Grouped by route template, so every invoice id counts as one endpoint.</CardDescription>
      </CardHeader>
      <CardContent>
        <Table aria-label="Most accessed endpoints">
          <TableHeader>
            <TableRow>
              <TableHead>Endpoint</TableHead>
              <TableHead className="text-right">Requests</TableHead>
              <TableHead className="text-right sm:w-40">Share</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {usage.endpoints.map((row) => (
              <TableRow key={row.endpoint}>
                <TableCell className="whitespace-normal">
                  <span className="flex items-baseline gap-2">
                    <MethodLabel method={row.method} className="w-12 shrink-0" />
                    <span className="min-w-0 break-all font-mono text-xs">{row.route}</span>
                  </span>
                </TableCell>
                <TableCell className="text-right tabular-nums">{number.format(row.count)}</TableCell>
                <TableCell>
                  <span className="flex items-center justify-end gap-2">
                    <span className="hidden h-1.5 w-20 overflow-hidden rounded-full bg-muted sm:block" aria-hidden>
                      <span className="block h-full rounded-full bg-primary/70" style={{ width: `${Math.max(2, row.share * 100)}%` }} />
                    </span>
                    <span className="w-12 text-right tabular-nums text-muted-foreground">{share(row.share)}</span>
                  </span>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </CardContent>
    </Card>
  );
}

function RecentCalls({ calls, auditHref }: { calls: RecentCallDto[]; auditHref: string | null }) {
  return (
    <Card className="gap-0 overflow-hidden pb-0">
      <CardHeader className="flex flex-wrap items-start justify-between gap-2 pb-4">
        <div className="space-y-1.5">
          <CardTitle className="text-base">Last {calls.length} calls</CardTitle>
          <CardDescription>Newest first, straight from the request log. Times are UTC.</CardDescription>
        </div>
        {auditHref ? (
          <Link href={auditHref} className="inline-flex items-center gap-1 text-sm font-medium text-primary hover:underline">
            All calls in the audit log <ArrowRight className="size-4" aria-hidden />
          </Link>
        ) : null}
      </CardHeader>
      <ul aria-label="Last calls" className="divide-y border-t sm:hidden">
        {calls.map((call) => (
          <RequestListItem key={call.id} request={call} />
        ))}
      </ul>
      <Table aria-label="Last calls" containerClassName="hidden sm:block">
        <TableHeader>
          <TableRow>
            <TableHead className="pl-6">Time (UTC)</TableHead>
            <TableHead>Method</TableHead>
            <TableHead>Path</TableHead>
            <TableHead>Status</TableHead>
            <TableHead className="pr-6 text-right">Duration</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {calls.map((call) => (
            <TableRow key={call.id}>
              <TableCell className="pl-6">
                <RequestTime iso={call.createdAt} />
              </TableCell>
              <RequestCells request={call} lastClassName="pr-6" />
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Card>
  );
}
