import { writeFileSync } from "node:fs";
import { createApiApp } from "@/lib/api/app";
import { postmanCollectionJson, type OpenApiDocument } from "@/lib/api/postman-collection";

// Writes the Postman collection of the document /v1/openapi.json serves (as a client gets it; no
// server and no database needed) to the file named, or to standard output without one. The build
// runs it (scripts/build-postman-collection.mjs), and /docs in development (docs/features/api.md,
// "Postman collection").
const response = await createApiApp().request("/v1/openapi.json");
if (!response.ok) throw new Error(`GET /v1/openapi.json answered ${response.status}`);
const json = await postmanCollectionJson((await response.json()) as OpenApiDocument);
const file = process.argv[2];
if (file) writeFileSync(file, json);
else process.stdout.write(json);
