import { sql } from "drizzle-orm";
import { bigserial, check, index, jsonb, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";
import { ACTIVITY_TARGET_TYPES } from "@/core/activity";
import { createdAt, writtenBy } from "./columns";
import { tenant, users } from "./accounts";

/**
 * Activity history (docs/features/activity-history.md): every change by a person or by the system, written in the same
 * transaction as the change (lib/action.ts writes it for every dashboard mutation). The target's
 * name is kept as it was, so an entry still reads well after the key is renamed.
 */
export const activityLog = pgTable(
  "activity_log",
  {
    id: bigserial("id", { mode: "number" }).notNull(),
    orgId: tenant(),
    /** "user" entries name their actor; "system" ones (expiries) have none. */
    actorKind: text("actor_kind", { enum: ["user", "system"] })
      .notNull()
      .default("user"),
    actorUserId: text("actor_user_id").references(() => users.id, { onDelete: "set null" }),
    action: text("action").notNull(),
    targetType: text("target_type", { enum: ACTIVITY_TARGET_TYPES }).notNull(),
    targetId: text("target_id").notNull(),
    targetName: text("target_name").notNull(),
    before: jsonb("before").$type<Record<string, unknown>>(),
    after: jsonb("after").$type<Record<string, unknown>>(),
    ip: text("ip"),
    userAgent: text("user_agent"),
    createdAt: createdAt(),
    tx: writtenBy(),
  },
  (t) => [
    // org_id in it for Citus (db/distribution.ts); the id first, as in the other tables numbered across organizations.
    primaryKey({ columns: [t.id, t.orgId] }),
    check("activity_log_system_has_no_user", sql`${t.actorKind} = 'user' or ${t.actorUserId} is null`),
    index("activity_log_org_time_idx").on(t.orgId, t.createdAt, t.id),
    index("activity_log_org_target_time_idx").on(t.orgId, t.targetId, t.createdAt, t.id),
    // The log streams' cursor: the organization's entries in the order they became visible.
    index("activity_log_org_tx_idx").on(t.orgId, t.tx, t.id),
    // The system records a key's expiry once, whichever process sees it first.
    uniqueIndex("activity_log_key_expired_once_idx")
      .on(t.orgId, t.targetId)
      .where(sql`${t.action} = 'api_key.expired'`),
  ],
);
