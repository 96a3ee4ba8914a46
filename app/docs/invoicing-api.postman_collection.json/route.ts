import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";

// The Postman collection of /v1, which /docs links to: converted from the OpenAPI document the API
// serves by `npm run build`, which writes it beside Next.js's build (scripts/build.mjs), so what is
// downloaded is what the running build's API answers (docs/features/api.md, "Postman collection").
// Not imported from the converter: openapi-to-postmanv2 is a development dependency, and the
// route would bundle the whole API to convert on a request.
const FILE = "invoicing-api.postman_collection.json";

export const dynamic = "force-dynamic";

/**
 * In development there is no build to read, and the sources change under the running server: each
 * download converts the document afresh, by the script the build runs (a second or two).
 */
async function freshCollection(): Promise<string> {
  const run = promisify(execFile);
  const args = ["--conditions=react-server", "--import", "tsx", "scripts/postman-collection.ts"];
  const { stdout } = await run(process.execPath, args, { cwd: process.cwd(), maxBuffer: 64 * 1024 * 1024 });
  return stdout;
}

async function builtCollection(): Promise<string> {
  const file = path.join(process.cwd(), ".next", FILE);
  try {
    return await readFile(file, "utf8");
  } catch (error) {
    throw new Error(`No Postman collection at ${file}: build with npm run build (scripts/build.mjs).`, { cause: error });
  }
}

export async function GET(): Promise<Response> {
  const body = process.env.NODE_ENV === "development" ? await freshCollection() : await builtCollection();
  return new Response(body, {
    headers: {
      "Content-Type": "application/json",
      "Content-Disposition": `attachment; filename="${FILE}"`,
      // A new build may bring a new collection: the browser asks again rather than keep an old one.
      "Cache-Control": "no-cache",
    },
  });
}
