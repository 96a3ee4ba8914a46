import { readFile } from "node:fs/promises";
import path from "node:path";

// Read once at build time (force-static) from the installed package; no CDN is involved.
const BUNDLE = path.join(process.cwd(), "node_modules", "@scalar", "api-reference", "dist", "browser", "standalone.js");

export const dynamic = "force-static";

export async function GET(): Promise<Response> {
  return new Response(await readFile(BUNDLE, "utf8"), {
    headers: { "Content-Type": "text/javascript; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
