import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { pgliteDataDir } from "@/db/pglite-dir";

/**
 * AUTH_SECRET signs session cookies. With the embedded database it is generated once and kept
 * beside the data, so sessions survive restarts; a deployment on PostgreSQL must provide it.
 */
export function ensureAuthSecret(): void {
  if (process.env.AUTH_SECRET) return;
  if (process.env.DATABASE_URL && process.env.NODE_ENV === "production") {
    throw new Error("AUTH_SECRET is required in production. Generate one with: openssl rand -base64 32");
  }
  const file = path.join(path.dirname(pgliteDataDir()), "auth-secret");
  if (!fs.existsSync(file)) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, randomBytes(32).toString("base64"), { mode: 0o600 });
  }
  process.env.AUTH_SECRET = fs.readFileSync(file, "utf8").trim();
}
