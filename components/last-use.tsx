import type { ApiKeyDto } from "@/db/queries/api-keys";
import { RelativeTime } from "@/components/relative-time";

/**
 * A key's last use (docs/features/api-keys.md#rename-revoke-last-use): when, from which client address, on which route: "3 hours ago from
 * 203.0.113.10 · GET /v1/invoices", or "Never used". Recorded at most once a minute.
 */
export function LastUse({ apiKey, prefix }: { apiKey: Pick<ApiKeyDto, "lastUsedAt" | "lastUsedIp" | "lastUsedEndpoint">; prefix?: string }) {
  if (!apiKey.lastUsedAt) return <span className="text-muted-foreground">Never used</span>;
  return (
    <span className="break-words">
      {prefix ? `${prefix} ` : null}
      <RelativeTime value={apiKey.lastUsedAt} />
      {apiKey.lastUsedIp ? (
        <>
          {" "}
          from <span className="font-mono text-xs">{apiKey.lastUsedIp}</span>
        </>
      ) : null}
      {apiKey.lastUsedEndpoint ? <span className="text-muted-foreground"> · {apiKey.lastUsedEndpoint}</span> : null}
    </span>
  );
}
