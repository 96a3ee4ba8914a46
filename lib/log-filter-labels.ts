import type { RangePreset } from "@/core/request-log";

// The names the logs' filters show, apart from lib/audit-filters.ts so the filter bars (client
// components) get them without the schema and zod (docs/decisions/0065-on-demand-dialogs.md).

/** The gateway's refusals the audit log can be filtered to (docs/features/api.md, docs/features/restricted-keys.md), named as a person reads them. */
export const REFUSALS = {
  api_key_revoked: "Revoked key",
  api_key_expired: "Expired key",
  ip_not_allowed: "IP not allowed",
  plan_no_api_access: "No API access (plan)",
  api_key_scope_insufficient: "Beyond key's access",
  rate_limited: "Rate limited",
  monthly_quota_exceeded: "Quota used up",
} as const;

export const RANGE_PRESETS = {
  "1h": "Last hour",
  "24h": "Last 24 hours",
  "7d": "Last 7 days",
  "30d": "Last 30 days",
  "90d": "Last 90 days",
} as const satisfies Record<RangePreset, string>;
