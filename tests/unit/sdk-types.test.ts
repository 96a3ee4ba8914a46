import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { SDK_TYPES_FILE, sdkTypesSource } from "@/scripts/sdk-types";

it("the SDK's committed types are the ones the served document generates (npm run sdk:generate)", async () => {
  const committed = readFileSync(SDK_TYPES_FILE, "utf8");
  expect(committed === (await sdkTypesSource()), "packages/sdk/src/generated/openapi.ts drifted from /v1/openapi.json: run npm run sdk:generate").toBe(true);
});
