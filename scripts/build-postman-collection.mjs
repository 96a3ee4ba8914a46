// Plain JavaScript, as scripts/build.mjs, which runs it with plain `node`.
import { spawnSync } from "node:child_process";

/** The collection's file in .next/, where the build writes it and app/docs/invoicing-api.postman_collection.json/route.ts reads it. */
export const POSTMAN_COLLECTION_FILE = "invoicing-api.postman_collection.json";

/**
 * Writes the Postman collection of the API's OpenAPI document to `file` (docs/features/api.md,
 * "Postman collection"): scripts/postman-collection.ts, run from the TypeScript sources as `npm
 * run lint:openapi` runs its script, since the conversion needs the development dependencies
 * (openapi-to-postmanv2, tsx) that the build needs anyway (esbuild, Next.js's).
 */
export function buildPostmanCollection(root, file) {
  const result = spawnSync(process.execPath, ["--conditions=react-server", "--import", "tsx", "scripts/postman-collection.ts", file], {
    cwd: root,
    stdio: "inherit",
  });
  if (result.error) throw new Error("Could not run scripts/postman-collection.ts", { cause: result.error });
  if (result.status !== 0) throw new Error(`scripts/postman-collection.ts exited with ${result.status ?? result.signal}: no Postman collection.`);
}
