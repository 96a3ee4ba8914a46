/**
 * The database's tables, one file per feature; the migrations in db/migrations are generated from
 * this module (drizzle.config.ts). Every tenant table leads its keys with org_id (docs/operations.md#beyond-one-machine).
 */
export { modeEnum } from "./columns";
export * from "./accounts";
export * from "./activity";
export * from "./alerts";
export * from "./webhooks";
export * from "./api-keys";
export * from "./gateway";
export * from "./invoicing";
export * from "./notifications";
export * from "./log-streams";
export * from "./sso";
export * from "./analytics";
