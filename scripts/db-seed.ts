import { closeDb, getDb } from "@/db";
import { migrateDatabase } from "@/db/migrate";
import { seedDatabase } from "@/seed";

await migrateDatabase();
await seedDatabase(getDb());
console.log("Demo data in place (see README for the sign-ins).");
await closeDb();
