// Plain JavaScript, not TypeScript: `npm start` runs this with plain `node` before anything is
// compiled, and on an install without the development tools (no tsx).
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

/** Top-level folders no build reads: dependencies, outputs, local data, tests, benches, docs, the client packages. */
const NOT_BUILT_FROM = new Set(["node_modules", "dist", "data", "tests", "e2e", "bench", "docs", "test-results", "playwright-report", "packages"]);

/**
 * Whether a file under the root is none of the builds' business: dot-files and dot-folders (.git,
 * .next, .env), Markdown, test files, and what `next build` and tsc write themselves.
 */
function ignored(name, topLevel) {
  return (
    name.startsWith(".") ||
    (topLevel && NOT_BUILT_FROM.has(name)) ||
    name.endsWith(".md") ||
    /\.test\.tsx?$/.test(name) ||
    name.endsWith(".tsbuildinfo") ||
    name === "next-env.d.ts"
  );
}

function addFolder(hash, root, relative) {
  const entries = fs.readdirSync(path.join(root, relative), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
  for (const entry of entries) {
    if (ignored(entry.name, relative === "")) continue;
    const file = path.join(relative, entry.name);
    if (entry.isDirectory()) addFolder(hash, root, file);
    else if (entry.isFile())
      hash
        .update(`${file}\0`)
        .update(fs.readFileSync(path.join(root, file)))
        .update("\0");
  }
}

/**
 * A hash of everything the builds are made from under `root` (the sources, the configuration,
 * package-lock.json, this script): a build stamped with it is current while it is unchanged.
 * Over-inclusive on purpose (a folder added tomorrow counts without a change here): a needless
 * rebuild costs a minute, a stale build served as current costs a wrong production.
 */
export function sourceHash(root) {
  const hash = createHash("sha256");
  addFolder(hash, root, "");
  return hash.digest("hex");
}

/** Whether the build whose stamp is `stampFile` was made from sources of hash `hash`. */
export function isCurrent(stampFile, hash) {
  try {
    return fs.readFileSync(stampFile, "utf8").trim() === hash;
  } catch (error) {
    if (error.code === "ENOENT") return false; // never built
    throw error;
  }
}
