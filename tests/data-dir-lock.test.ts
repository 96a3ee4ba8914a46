import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { acquireDataDirLock, DataDirInUseError } from "@/db/locks/data-dir";

const root = path.resolve(import.meta.dirname, "..");
const folders: string[] = [];

function freshFolder(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pglite-lock-"));
  folders.push(dir);
  return dir;
}

afterEach(() => {
  for (const dir of folders.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe("the embedded database folder", () => {
  it("has one owning process: a second one stops at once, naming the owner", () => {
    const dir = freshFolder();
    const release = acquireDataDirLock(dir);
    try {
      const env: NodeJS.ProcessEnv = { ...process.env, PGLITE_DIR: dir };
      delete env.DATABASE_URL;
      const second = spawnSync(process.execPath, ["--import", "tsx", "scripts/db-migrate.ts"], { cwd: root, env, encoding: "utf8", timeout: 60_000 });
      expect(second.status).not.toBe(0);
      expect(second.stderr).toContain(`already open in process ${process.pid}`);
      expect(() => acquireDataDirLock(dir)).toThrow(DataDirInUseError);
    } finally {
      release();
    }
    // Released: the folder can be owned again.
    acquireDataDirLock(dir)();
  });

  it("takes over a lock left behind by a process that died", () => {
    const dir = freshFolder();
    const gone = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
    fs.writeFileSync(path.join(dir, ".owner.pid"), gone.stdout);
    const release = acquireDataDirLock(dir);
    expect(fs.readFileSync(path.join(dir, ".owner.pid"), "utf8")).toBe(String(process.pid));
    release();
    expect(fs.existsSync(path.join(dir, ".owner.pid"))).toBe(false);
  });
});
