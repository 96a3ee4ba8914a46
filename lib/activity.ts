import { ACTIVITY_ACTIONS, type ActivityValues } from "@/core/activity";
import type { KeyAccess, LeakedKeyResponse, Mode, RevokeReason, Role } from "@/core/enums";
import { LEAKED_KEY_RESPONSES } from "@/lib/keys/leaked-key-response-labels";
import { KEY_ACCESS_LABELS } from "@/lib/keys/access";
import { KEY_MODE_LABELS } from "@/lib/keys/mode-labels";
import { REVOKE_REASONS } from "@/lib/keys/revoke-reasons";
import { ROLE_INFO } from "./roles";

/** How the dashboard shows an activity entry (the vocabulary itself is core/activity.ts). */

export function activityLabel(action: string): string {
  return (ACTIVITY_ACTIONS as Record<string, string>)[action] ?? action;
}

const FIELD_LABELS: Record<string, string> = {
  name: "Name",
  slug: "Address",
  mode: "Mode",
  hint: "Key",
  status: "Status",
  plan: "Plan",
  rateLimitPerMinute: "Rate limit per minute",
  expiresAt: "Expires",
  reason: "Reason",
  note: "Note",
  replacedBy: "Replaced by",
  replaces: "Replaces",
  maxLifetimeDays: "Maximum lifetime",
  expiryRequired: "Expiry required",
  required: "Two-factor required",
  access: "Access",
  scopes: "Permissions",
  ipAllowlist: "IP allowlist",
  budget: "Budget",
  quotaAlertThresholds: "Quota alerts at",
  rateLimitAlertThreshold: "Rate-limit alert above",
  url: "URL",
  description: "Description",
  eventTypes: "Events",
  enabled: "On",
  secret: "Secret",
  event: "Event",
  delivery: "Delivery",
  email: "Email",
  role: "Role",
  invitation: "Invitation",
  via: "Through",
  response: "Response",
  leakedAt: "Found at",
  source: "Found in",
  issuer: "Issuer",
  clientId: "Client ID",
  defaultRole: "Role on first sign-in",
  domain: "Domain",
  verified: "Verified",
  customers: "Customers deleted",
  products: "Products deleted",
  invoices: "Invoices deleted",
};

/** What a null means for a field: "Never" for an expiry, "Default (60)" for a rate limit. */
const NULL_MEANS: Record<string, string> = {
  expiresAt: "Never",
  rateLimitPerMinute: "Default (60)",
  maxLifetimeDays: "No maximum",
  ipAllowlist: "Any address",
  quotaAlertThresholds: "Off",
  budget: "No budget",
};

/** The order fields are shown in: the label table's, whatever order the stored JSON kept (jsonb sorts its keys by length). */
const FIELD_ORDER = Object.keys(FIELD_LABELS);
/** A field's place in FIELD_ORDER; a field without a label goes last. */
function fieldRank(field: string): number {
  const rank = FIELD_ORDER.indexOf(field);
  return rank === -1 ? FIELD_ORDER.length : rank;
}

/** One side's value of a field; `side` is the whole side, for a value that reads differently beside another. */
function shown(field: string, value: string | number | boolean | null | undefined, side: ActivityValues | null): string | null {
  if (value === undefined) return null;
  // A key without a restricted access records no permissions: it has every one (full) or every read (read only).
  if (field === "scopes" && value === null && typeof side?.access === "string") return KEY_ACCESS_LABELS[side.access as KeyAccess] ?? "None";
  if (value === null) return NULL_MEANS[field] ?? "None";
  if (field === "reason" && typeof value === "string") return REVOKE_REASONS[value as RevokeReason] ?? value;
  if (field === "expiresAt" && typeof value === "string") return `${value.slice(0, 10)} ${value.slice(11, 16)} UTC`;
  if (field === "maxLifetimeDays") return `${value} days`;
  if (field === "rateLimitAlertThreshold") return `${value} refusals in 5 minutes`;
  if (field === "access" && typeof value === "string") return KEY_ACCESS_LABELS[value as KeyAccess] ?? value;
  if (field === "mode" && typeof value === "string") return KEY_MODE_LABELS[value as Mode] ?? value;
  if ((field === "role" || field === "defaultRole") && typeof value === "string") return ROLE_INFO[value as Role]?.label ?? value;
  if (field === "response" && typeof value === "string") return LEAKED_KEY_RESPONSES[value as LeakedKeyResponse] ?? value;
  if (typeof value === "boolean") return value ? "Yes" : "No";
  return String(value);
}

export interface FieldChange {
  field: string;
  label: string;
  before: string | null;
  after: string | null;
}

/** The fields an entry records, in the label table's order, each with its value before and after ("Status: active → revoked"). */
export function fieldChanges(before: ActivityValues | null, after: ActivityValues | null): FieldChange[] {
  const fields = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])].sort((a, b) => fieldRank(a) - fieldRank(b));
  return fields.map((field) => ({
    field,
    label: FIELD_LABELS[field] ?? field,
    before: shown(field, before?.[field], before),
    after: shown(field, after?.[field], after),
  }));
}
