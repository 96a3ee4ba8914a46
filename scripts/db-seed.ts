import { closeDb, getDb } from "@/db";
import { migrateDatabase } from "@/db/migrate";
import { ensureAuthSecret } from "@/servers/runtime-config";
import { seedDatabase } from "@/seed";

// The migrations seal stored credentials under a key derived from it (docs/security.md#secrets-at-rest), as the server will open them.
ensureAuthSecret();
await migrateDatabase();
await seedDatabase(getDb());
console.log("Demo data in place (see README for the sign-ins).");
await closeDb();
