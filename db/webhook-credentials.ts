import { and, eq, isNull, notLike, or, sql } from "drizzle-orm";
import type { WebhookFormat } from "@/core/enums";
import { log } from "@/core/log";
import { isSealed, SEALED_PREFIX, webhookCredentials } from "@/core/sealed-secret";
import { slackUrlHint } from "@/core/slack-url-hint";
import type { Db, Tx } from "./index";
import { alerts, webhookEndpoints } from "./schema";

/**
 * How a webhook endpoint's credentials are stored (docs/security.md#secrets-at-rest): its signing
 * secrets sealed in place, and a Slack channel's URL sealed in `sealed_url` with its hint in `url`,
 * so that everything that names an endpoint (pages, the history, alerts) reads `url` and never holds
 * the credential. Not `server-only`: the migrations' data step below runs from `npm run db:migrate`.
 */

/** The columns an endpoint's address is stored in. */
export function storedAddress(url: string, format: WebhookFormat): { url: string; sealedUrl: string | null } {
  return format === "slack" ? { url: slackUrlHint(url), sealedUrl: webhookCredentials.seal(url) } : { url, sealedUrl: null };
}

/** Where an endpoint's deliveries go: a Slack channel's URL opened (never its hint), a standard endpoint's as stored. */
export function deliveryAddress(stored: { url: string; sealedUrl: string | null; format: WebhookFormat }): string {
  return stored.format === "slack" ? webhookCredentials.open(stored.sealedUrl ?? "") : stored.url;
}

/** An endpoint with a credential stored before sealing: either secret not sealed, or a Slack channel's URL still in `url`. */
const STORED_PLAIN = or(
  notLike(webhookEndpoints.signingSecret, `${SEALED_PREFIX}%`),
  notLike(webhookEndpoints.previousSigningSecret, `${SEALED_PREFIX}%`),
  and(eq(webhookEndpoints.format, "slack"), isNull(webhookEndpoints.sealedUrl)),
);

const AS_READ = {
  id: webhookEndpoints.id,
  orgId: webhookEndpoints.orgId,
  format: webhookEndpoints.format,
  url: webhookEndpoints.url,
  sealedUrl: webhookEndpoints.sealedUrl,
  signingSecret: webhookEndpoints.signingSecret,
  previousSigningSecret: webhookEndpoints.previousSigningSecret,
};
type StoredEndpoint = Pick<typeof webhookEndpoints.$inferSelect, keyof typeof AS_READ>;

const sealedOrAsIs = (value: string | null) => (value === null || isSealed(value) ? value : webhookCredentials.seal(value));

/**
 * Seals one endpoint's plain credentials in one statement that changes the row only if it is still
 * as it was read, so a change made meanwhile is never overwritten; a Slack URL's alerts (a failing
 * channel turned off) then name it by its hint, as new ones do. Returns whether it sealed the row.
 */
async function sealEndpoint(tx: Tx, row: StoredEndpoint): Promise<boolean> {
  const slackUrl = row.format === "slack" && row.sealedUrl === null ? row.url : null;
  const sealed = await tx
    .update(webhookEndpoints)
    .set({
      signingSecret: sealedOrAsIs(row.signingSecret)!,
      previousSigningSecret: sealedOrAsIs(row.previousSigningSecret),
      ...(slackUrl === null ? {} : storedAddress(slackUrl, "slack")),
    })
    .where(
      and(
        eq(webhookEndpoints.id, row.id),
        eq(webhookEndpoints.orgId, row.orgId),
        eq(webhookEndpoints.signingSecret, row.signingSecret),
        sql`${webhookEndpoints.previousSigningSecret} is not distinct from ${row.previousSigningSecret}`,
        eq(webhookEndpoints.url, row.url),
        sql`${webhookEndpoints.sealedUrl} is not distinct from ${row.sealedUrl}`,
      ),
    )
    .returning({ id: webhookEndpoints.id });
  if (sealed.length > 0 && slackUrl !== null) {
    await tx
      .update(alerts)
      .set({ details: sql`jsonb_set(${alerts.details}, '{url}', to_jsonb(${slackUrlHint(slackUrl)}::text))` })
      .where(and(eq(alerts.orgId, row.orgId), eq(alerts.kind, "webhook_disabled"), sql`${alerts.details} ->> 'url' = ${slackUrl}`));
  }
  return sealed.length > 0;
}

/**
 * The migrations' data step (db/migrate.ts, under the migration lock): SQL cannot seal, the key
 * coming from AUTH_SECRET, so the endpoints stored before sealing are sealed here, each by one
 * guarded statement; a second run finds none. Where AUTH_SECRET is not set (`npm run db:migrate`
 * without it) they are left for the server, which always has it, to seal when it starts: a key
 * made up here would seal them under one the server cannot open. Returns how many it sealed.
 */
export async function sealStoredWebhookCredentials(db: Db): Promise<number> {
  const plain = await db.select(AS_READ).from(webhookEndpoints).where(STORED_PLAIN);
  if (plain.length === 0) return 0;
  if (!process.env.AUTH_SECRET) {
    log.warn(`${plain.length} webhook endpoints hold credentials stored before sealing: AUTH_SECRET is not set here, so the server seals them at its start.`);
    return 0;
  }
  let sealed = 0;
  for (const row of plain) if (await db.transaction((tx) => sealEndpoint(tx, row))) sealed += 1;
  if (sealed > 0) log.info(`Sealed the credentials of ${sealed} webhook endpoints stored before sealing (docs/security.md#secrets-at-rest).`);
  return sealed;
}
