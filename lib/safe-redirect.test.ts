import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { safeCallbackPath } from "./safe-redirect";

const OWN_HOST = "app.test:3000";

/** Whether a browser on this site, given `location` as a redirect, stays on this site. */
function staysOnSite(location: string): boolean {
  const url = new URL(location, `http://${OWN_HOST}/signin`);
  return url.host === OWN_HOST && location.startsWith("/") && !location.startsWith("//") && !location.startsWith("/\\");
}

describe("the path to return to after sign-in", () => {
  it("keeps a path on this site, absolute or relative", () => {
    expect(safeCallbackPath("/acme/settings/plan?x=1", OWN_HOST)).toBe("/acme/settings/plan?x=1");
    expect(safeCallbackPath("http://app.test:3000/acme/settings/plan", OWN_HOST)).toBe("/acme/settings/plan");
    expect(safeCallbackPath("/acme/./settings/../settings/plan", OWN_HOST)).toBe("/acme/settings/plan");
  });

  it.each(["https://evil.test/acme", "//evil.test/acme", "http://app.test:3001/acme", "javascript:alert(1)", "/signin?callbackUrl=/x", ""])(
    "sends %j to the start page",
    (value) => {
      expect(safeCallbackPath(value, OWN_HOST)).toBe("/");
    },
  );

  it.each([
    "/.//evil.example/x",
    "/./\\evil.example/x",
    "/..//evil.example/x",
    "/acme/..//evil.example/x",
    "/acme/../..//evil.example",
    "/%2e//evil.example/x",
    "/\\evil.example/x",
    "\\\\evil.example/x",
    "/\t/evil.example/x",
    "/\n/evil.example/x",
    "///evil.example/x",
    "http://app.test:3000//evil.example/x",
    "http://app.test:3000/.//evil.example/x",
    "https:evil.example",
    "http:/\\evil.example",
  ])("never answers %j with a path that leaves the site", (value) => {
    const path = safeCallbackPath(value, OWN_HOST);
    expect(staysOnSite(path), path).toBe(true);
    expect(path).not.toContain("evil.example");
  });

  it("answers any string with a path that stays on this site", () => {
    const pieces = fc.constantFrom("/", "//", "\\", ".", "..", "%2e", "%2f", "%5c", "\t", "\n", "evil.example", "acme", "?", "#", "@", ":", "http:", "https:");
    fc.assert(
      fc.property(
        fc.array(pieces, { maxLength: 12 }).map((parts) => parts.join("")),
        (value) => {
          expect(staysOnSite(safeCallbackPath(value, OWN_HOST))).toBe(true);
        },
      ),
      { numRuns: 2000 },
    );
  });
});
