import { execFileSync } from "node:child_process";
import path from "node:path";

/**
 * The test files that start servers run their compiled output, as `npm start` does
 * (tests/helpers/server-process.ts): compiled here once before any file runs, when the sources
 * changed since the last build (about a second), so parallel files never build at the same time.
 */
export default function compileServers(): void {
  const root = path.resolve(import.meta.dirname, "../..");
  execFileSync(process.execPath, [path.join(root, "scripts", "build.mjs"), "--servers", "--if-stale"], { cwd: root, stdio: "inherit" });
}
