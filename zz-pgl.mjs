import fs from "node:fs";
import { PGlite } from "@electric-sql/pglite";
const t0 = performance.now();
const db = new PGlite("memory://", { loadDataDir: new Blob([fs.readFileSync("/tmp/snap.tar")]) });
await db.waitReady;
const t1 = performance.now();
for (let i = 0; i < 200; i++) await db.query("select count(*) from pg_class c join pg_attribute a on a.attrelid = c.oid");
const t2 = performance.now();
console.log("ready", (t1 - t0).toFixed(0), "200 queries", (t2 - t1).toFixed(0)); process.exit(0);
