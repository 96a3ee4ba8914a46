import { closeDb } from "@/db";
import { migrateDatabase } from "@/db/migrate";
import { ensureAuthSecret } from "@/servers/runtime-config";

// The migrations seal stored credentials under a key derived from it (docs/security.md#secrets-at-rest), as the server will open them.
ensureAuthSecret();
await migrateDatabase();
console.log("Database migrated.");
await closeDb();
