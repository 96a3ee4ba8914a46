import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isCurrent, sourceHash } from "@/scripts/source-hash.mjs";

// `npm start` builds only when the build's stamp differs from this hash (scripts/build.mjs): a
// restart of a built tree starts at once, a changed source is never served from an older build.
let root: string;
const write = (file: string, text: string) => {
  fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  fs.writeFileSync(path.join(root, file), text);
};

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "source-hash-"));
  for (const file of [
    "app/page.tsx",
    "lib/money.ts",
    "lib/money.test.ts",
    "server.ts",
    "package-lock.json",
    "README.md",
    "tests/a.test.ts",
    "dist/server.js",
    ".next/BUILD_ID",
    "data/pglite/x",
  ])
    write(file, file);
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

describe("the sources' hash a build is stamped with", () => {
  it("changes with a source, the lockfile or a file in a new folder", () => {
    for (const [file, text] of [
      ["lib/money.ts", "changed"],
      ["package-lock.json", "{}"],
      ["hooks/use-thing.ts", "new"],
      ["server.ts", ""],
    ]) {
      const before = sourceHash(root);
      write(file!, text!);
      expect(sourceHash(root), file).not.toBe(before);
    }
  });

  it("does not change with what no build reads: docs, tests, the outputs, the data", () => {
    const before = sourceHash(root);
    for (const file of [
      "README.md",
      "docs/operations.md",
      "docs/layers.svg",
      "tests/a.test.ts",
      "tests/helpers/factories.ts",
      "lib/money.test.ts",
      "e2e/x.spec.ts",
      "bench/run.ts",
      "dist/server.js",
      ".next/BUILD_ID",
      "data/pglite/x",
      "next-env.d.ts",
    ])
      write(file, "changed");
    expect(sourceHash(root)).toBe(before);
  });

  it("makes a build current only when its stamp holds it", () => {
    const stamp = path.join(root, "dist", "source-hash");
    expect(isCurrent(stamp, sourceHash(root))).toBe(false);
    write("dist/source-hash", sourceHash(root));
    expect(isCurrent(stamp, sourceHash(root))).toBe(true);
    write("lib/money.ts", "changed");
    expect(isCurrent(stamp, sourceHash(root))).toBe(false);
  });
});
