import { closeDb } from "@/db";
import { migrateDatabase } from "@/db/migrate";

await migrateDatabase();
console.log("Database migrated.");
await closeDb();
