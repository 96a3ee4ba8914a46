import type { UsageGroup } from "@/core/usage-query";

/** The Usage page's three breakdown tables (docs/features/usage-analytics.md), each a grouping of the same window's rows. */
export const BREAKDOWNS = {
  key: { label: "By key", groupBy: ["key"] },
  endpoint: { label: "By endpoint", groupBy: ["endpoint"] },
  "key-endpoint": { label: "By key × endpoint", groupBy: ["key", "endpoint"] },
} as const satisfies Record<string, { label: string; groupBy: readonly UsageGroup[] }>;
export type Breakdown = keyof typeof BREAKDOWNS;
export const BREAKDOWN_NAMES = Object.keys(BREAKDOWNS) as Breakdown[];
