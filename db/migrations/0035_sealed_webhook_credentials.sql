-- Webhook credentials sealed at rest (docs/security.md#secrets-at-rest): a Slack channel's URL moves to
-- sealed_url and its hint takes its place in url. SQL cannot seal (the key comes from AUTH_SECRET), so
-- the rows stored before are sealed by the data step that runs after the migrations (db/webhook-credentials.ts).
ALTER TABLE "webhook_endpoints" ADD COLUMN "sealed_url" text;
