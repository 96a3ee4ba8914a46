import { describe, expect, it } from "vitest";
import { safeCallbackPath } from "./safe-redirect";

describe("the path to return to after sign-in", () => {
  it("keeps a path on this site, absolute or relative", () => {
    expect(safeCallbackPath("/acme/settings/plan?x=1", "app.test:3000")).toBe("/acme/settings/plan?x=1");
    expect(safeCallbackPath("http://app.test:3000/acme/settings/plan", "app.test:3000")).toBe("/acme/settings/plan");
  });

  it.each([
    "https://evil.test/acme",
    "//evil.test/acme",
    "http://app.test:3001/acme",
    "javascript:alert(1)",
    "/signin?callbackUrl=/x",
    "",
  ])("sends %j to the start page", (value) => {
    expect(safeCallbackPath(value, "app.test:3000")).toBe("/");
  });
});
