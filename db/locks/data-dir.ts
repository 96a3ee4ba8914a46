import fs from "node:fs";
import path from "node:path";

export class DataDirInUseError extends Error {
  constructor(dir: string, pid: number) {
    super(
      `The embedded database in ${dir} is already open in process ${pid}. ` +
        "Only one process may use it: stop that process, or set DATABASE_URL to share a PostgreSQL server.",
    );
    this.name = "DataDirInUseError";
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The lock file this process holds, if it opened an embedded database folder. */
let heldLockPath: string | null = null;

/**
 * Whether this process still holds the embedded database folder's lock (null when it opened none):
 * a lock file removed or taken over means another process may open the folder beside this one.
 */
export function dataDirLockHeld(): boolean | null {
  if (!heldLockPath) return null;
  try {
    return fs.readFileSync(heldLockPath, "utf8") === String(process.pid);
  } catch {
    return false;
  }
}

/**
 * Makes this process the only one that opens the PGlite folder: two processes writing one folder
 * silently lose rows. Returns the function that gives the folder up (also run on exit).
 */
export function acquireDataDirLock(dir: string): () => void {
  const lockPath = path.join(dir, ".owner.pid");
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lockPath, String(process.pid), { flag: "wx" });
      heldLockPath = lockPath;
      const release = () => {
        heldLockPath = null;
        try {
          if (fs.readFileSync(lockPath, "utf8") === String(process.pid)) fs.unlinkSync(lockPath);
        } catch {
          // Already gone: nothing to release.
        }
        process.off("exit", release);
      };
      process.on("exit", release);
      return release;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const owner = Number(fs.readFileSync(lockPath, "utf8"));
      if (Number.isInteger(owner) && owner > 0 && isAlive(owner)) throw new DataDirInUseError(dir, owner);
      fs.unlinkSync(lockPath); // left behind by a process that died: take it over
    }
  }
  throw new Error(`Could not lock the embedded database folder ${dir}.`);
}
