import type { DbOrTx } from "@/db";
import { recordKeyExpiries } from "@/db/queries/key-expiries";
import { raiseKeyExpiryAlerts } from "@/lib/alerts/raise";
import { queueExpiryReminders } from "@/lib/notifications/queue";

/**
 * The maintenance timer's and start-up's work on expiries (docs/features/alerts.md): the
 * "expired" history entries, the expiring and expired alerts, the reminder emails. Each is kept
 * once by a unique index, so processes that run it at the same time write each once.
 */
export async function watchKeyExpiries(db: DbOrTx, now = new Date()): Promise<void> {
  await recordKeyExpiries(db, now);
  await raiseKeyExpiryAlerts(db, now);
  await queueExpiryReminders(db, now);
}
