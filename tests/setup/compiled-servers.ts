import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";

/**
 * The test files that start servers run their compiled output, as `npm start` does
 * (tests/helpers/server-process.ts): compiled here once before any file runs, when the sources
 * changed since the last build (about a second), so parallel files never build at the same time.
 * The command line's tests run its compiled package as `npx invoicing` does: `tsc -b` rebuilds the
 * SDK and the command line when their sources changed (packages/cli/tsconfig.build.json).
 */
export default function compileServers(): void {
  const root = path.resolve(import.meta.dirname, "../..");
  execFileSync(process.execPath, [path.join(root, "scripts", "build.mjs"), "--servers", "--if-stale"], { cwd: root, stdio: "inherit" });
  const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
  execFileSync(process.execPath, [tsc, "-b", path.join(root, "packages", "cli", "tsconfig.build.json")], { cwd: root, stdio: "inherit" });
}
