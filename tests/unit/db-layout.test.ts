import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// docs/architecture.md: db/ is the client, the schema, the migrations and the statements; its root
// keeps only what several features share, and statements of one feature go to db/queries/.
const DB_ROOT_FILES_MAX = 12;

describe("the db folder", () => {
  it(`keeps at most ${DB_ROOT_FILES_MAX} modules at its root`, () => {
    const root = path.resolve(import.meta.dirname, "../../db");
    const modules = fs.readdirSync(root).filter((name) => name.endsWith(".ts"));
    expect(modules.length, `db/ holds ${modules.join(", ")}`).toBeLessThanOrEqual(DB_ROOT_FILES_MAX);
  });
});
