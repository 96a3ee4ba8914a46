import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";

/** zod's `jitless` setting in a fresh Node process that evaluates the two modules in this order. */
function jitlessAfter(first: string, second: string): string {
  const script = `await import(${JSON.stringify(first)}); await import(${JSON.stringify(second)}); const { z } = await import("zod"); console.log(String(z.config().jitless));`;
  return execFileSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
    cwd: import.meta.dirname + "/../..",
    encoding: "utf8",
  }).trim();
}

// instrumentation-client.ts turns zod's compiled parsers off in the browser (the CSP refuses eval)
// without importing zod, so it must hold whichever of the two the browser evaluates first.
describe("instrumentation-client: zod without eval", () => {
  it("holds when it runs before zod (the browser's order)", () => {
    expect(jitlessAfter("./instrumentation-client.ts", "zod")).toBe("true");
  });

  it("holds when zod was evaluated first", () => {
    expect(jitlessAfter("zod", "./instrumentation-client.ts")).toBe("true");
  });
});
