import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createApiApp } from "@/lib/api/app";

// Lints the document /v1/openapi.json serves (generated from the zod schemas, as a client gets
// it) with Spectral and the ruleset in .spectral.yaml; any error fails the test command.
const response = await createApiApp().request("/v1/openapi.json");
if (!response.ok) throw new Error(`GET /v1/openapi.json answered ${response.status}`);
const folder = mkdtempSync(path.join(tmpdir(), "openapi-"));
const document = path.join(folder, "openapi.json");
writeFileSync(document, await response.text());
try {
  execFileSync(
    path.resolve("node_modules/.bin/spectral"),
    ["lint", document, "--ruleset", ".spectral.yaml", "--fail-severity", "error", "--display-only-failures"],
    {
      stdio: "inherit",
    },
  );
  console.log("Spectral: no errors in /v1/openapi.json (OpenAPI and OWASP rulesets).");
} catch {
  console.error("Spectral found errors in /v1/openapi.json: see above.");
  process.exitCode = 1;
} finally {
  rmSync(folder, { recursive: true, force: true });
}
