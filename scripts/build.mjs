// The production build: Next.js's (.next/, with the Postman collection /docs serves) and the
// servers compiled to JavaScript (dist/), each stamped with the hash of the sources it was made
// from (scripts/source-hash.mjs).
//
//   node scripts/build.mjs                     both (npm run build)
//   node scripts/build.mjs --servers           the servers only (the tests and benches that start them)
//   add --if-stale                             only what is not current (npm start, npm run start:api)
//
// Plain JavaScript so that `npm start` can tell, with plain `node`, whether it must build at all.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { buildPostmanCollection, POSTMAN_COLLECTION_FILE } from "./build-postman-collection.mjs";
import { isCurrent, sourceHash } from "./source-hash.mjs";

const root = path.resolve(import.meta.dirname, "..");
const dist = path.join(root, "dist");
const STAMP = "source-hash";

/**
 * Every file a server process runs, by its name in dist/: the two servers (the cluster's workers
 * run the same file, servers/worker-cluster.ts), the PDF renderer's worker thread, which
 * lib/api/services/pdf.ts loads by path, and the log streams' delivery process (servers/log-stream-delivery.ts). What server.ts and api-server.ts import lazily becomes
 * chunks of its own, so a cluster's primary still loads none of the workers' modules.
 */
const ENTRIES = {
  server: "server.ts",
  "api-server": "api-server.ts",
  "pdf-worker": "lib/api/services/pdf-worker.ts",
  "log-stream-delivery-process": "servers/log-stream-delivery-process.ts",
};

/**
 * `server-only` marks the query modules that must never reach a browser bundle; Next's build
 * enforces it for app/. The servers' bundle is server code by definition, so it is compiled in as
 * the empty module it is under the react-server condition, and the output runs under plain
 * `node` with Node's default conditions, as `next start` runs Next.js.
 */
const serverOnlyIsEmpty = {
  name: "server-only",
  setup(build) {
    build.onResolve({ filter: /^server-only$/ }, () => ({ path: "server-only", namespace: "empty" }));
    build.onLoad({ filter: /.*/, namespace: "empty" }, () => ({ contents: "" }));
  },
};

/**
 * esbuild: the servers are our code over packages that stay in node_modules, which it bundles in
 * about a second (tsc emits a file per module and leaves the `@/` paths for a loader to resolve;
 * Next's output covers app/ only). Flat output: the chunks, the worker's file and the migrations
 * sit side by side, so a module finds them at `./name` (pdf.ts, db/migrate.ts).
 */
async function buildServers(hash) {
  const esbuild = await import("esbuild");
  fs.rmSync(dist, { recursive: true, force: true });
  await esbuild.build({
    absWorkingDir: root,
    entryPoints: ENTRIES,
    outdir: dist,
    chunkNames: "[name]-[hash]",
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20.12",
    packages: "external",
    plugins: [serverOnlyIsEmpty],
    // Stack traces name the TypeScript lines when Node runs with --enable-source-maps (npm start does).
    sourcemap: true,
    sourcesContent: false,
    logLevel: "warning",
  });
  fs.cpSync(path.join(root, "db", "migrations"), path.join(dist, "migrations"), { recursive: true });
  fs.cpSync(path.join(root, "db", "clickhouse", "migrations"), path.join(dist, "clickhouse-migrations"), { recursive: true });
  fs.writeFileSync(path.join(dist, STAMP), hash);
}

/**
 * Next.js's build, and beside it the Postman collection of the API's OpenAPI document, which
 * /docs links to and app/docs/invoicing-api.postman_collection.json/route.ts serves: written after
 * `next build`, which empties .next/ first, and before the stamp, so a build without it is never
 * current (docs/features/api.md, "Postman collection").
 */
function buildNext(hash) {
  const nextBin = createRequire(import.meta.url).resolve("next/dist/bin/next");
  const result = spawnSync(process.execPath, [nextBin, "build"], { cwd: root, stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
  buildPostmanCollection(root, path.join(root, ".next", POSTMAN_COLLECTION_FILE));
  fs.writeFileSync(path.join(root, ".next", STAMP), hash);
}

const serversOnly = process.argv.includes("--servers");
const ifStale = process.argv.includes("--if-stale");
const hash = sourceHash(root);
const serversDue = !ifStale || !isCurrent(path.join(dist, STAMP), hash);
const nextDue = !serversOnly && (!ifStale || !isCurrent(path.join(root, ".next", STAMP), hash));
if (ifStale && (serversDue || nextDue)) console.log(`No build of the current sources${serversOnly ? " of the servers" : ""}: building it first…`);
if (serversDue) await buildServers(hash);
if (nextDue) buildNext(hash);
