import type { Page, Response } from "@playwright/test";
import { axe, expect, screenshot, storageStateOf, test } from "./fixtures";
import { ApiKeysPage } from "./pages/api-keys-page";
import { SignInPage } from "./pages/sign-in-page";

// Every page is served with a nonce-based CSP that refuses framing, and the other
// security headers; under that CSP every page still runs without a single violation.

const SIGNED_OUT_PAGES = [
  { path: "/signin", title: "Sign in · Invoicing" },
  { path: "/signin/sso", title: "Sign in with SSO · Invoicing" },
  { path: "/signup", title: "Create an account · Invoicing" },
  { path: "/docs", title: "API reference · Invoicing" },
  { path: `/invite/inv_${"0".repeat(32)}`, title: "Invitation · Invoicing" },
];
const OWNER_PAGES = [
  { path: "/acme/settings/api", title: "API keys · Invoicing" },
  { path: "/acme/settings/api/keys/key_demo_acme_prod", title: "API key usage · Invoicing" },
  // A rolled key in its overlap: the notice, both links and the key outside no policy.
  { path: "/acme/settings/api/keys/key_demo_acme_zapier_old", title: "API key usage · Invoicing" },
  { path: "/acme/settings/api/policy", title: "Key policy · Invoicing" },
  { path: "/acme/settings/api/usage", title: "Usage · Invoicing" },
  { path: "/acme/settings/api/audit", title: "Audit log · Invoicing" },
  { path: "/acme/settings/api/activity", title: "Activity · Invoicing" },
  { path: "/acme/settings/plan", title: "Plan · Invoicing" },
  { path: "/acme/settings/alerts", title: "Alerts · Invoicing" },
  { path: "/acme/settings/webhooks", title: "Webhooks · Invoicing" },
  { path: "/acme/settings/log-streams", title: "Log streams · Invoicing" },
  { path: "/acme/settings/members", title: "Members · Invoicing" },
  { path: "/acme/settings/no-such-page", title: /Invoicing/ },
];

/** Everything the browser reports about the CSP: violation events and console errors. */
async function watchForCspViolations(page: Page): Promise<() => Promise<string[]>> {
  const reported: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" && /content security policy/i.test(message.text())) reported.push(`console: ${message.text()}`);
  });
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener("securitypolicyviolation", (event) =>
      seen.push(`${event.violatedDirective} blocked ${event.blockedURI || "inline"} (${event.sourceFile}:${event.lineNumber})`),
    );
  });
  return async () => [...reported, ...(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations))];
}

function expectSecurityHeaders(response: Response | null, path: string) {
  expect(response, path).not.toBeNull();
  const headers = response!.headers();
  const csp = headers["content-security-policy"] ?? "";
  const directives = new Map(
    csp.split(";").map((directive) => {
      const [name = "", ...values] = directive.trim().split(/\s+/);
      return [name, values];
    }),
  );
  expect(directives.get("script-src"), `${path}: script-src`).toEqual(
    expect.arrayContaining(["'strict-dynamic'", expect.stringMatching(/^'nonce-[A-Za-z0-9+/]{22}==?'$/)]),
  );
  expect(directives.get("script-src"), `${path}: script-src`).not.toContain("'unsafe-inline'");
  // The API reference's bundled zod probes for eval; nothing else may.
  if (path !== "/docs") expect(directives.get("script-src"), `${path}: script-src`).not.toContain("'unsafe-eval'");
  expect(directives.get("frame-ancestors"), path).toEqual(["'none'"]);
  expect(directives.get("object-src"), path).toEqual(["'none'"]);
  expect(headers, path).toMatchObject({
    "x-content-type-options": "nosniff",
    "referrer-policy": "strict-origin-when-cross-origin",
    "permissions-policy": expect.stringContaining("camera=()"),
  });
  expect(headers["permissions-policy"], path).toContain("microphone=()");
  expect(headers["permissions-policy"], path).toContain("geolocation=()");
  // Plain HTTP here: HSTS only over HTTPS (tests/one-port-server.test.ts covers that side).
  expect(headers["strict-transport-security"], path).toBeUndefined();
}

/**
 * Serious and critical accessibility problems axe finds on the page, as "rule: element". Lighthouse
 * also runs label-content-name-mismatch, which axe keeps among its experimental rules: enabled here.
 */
async function seriousAxeViolations(page: Page): Promise<string[]> {
  const results = await axe(page, { rules: { "label-content-name-mismatch": { enabled: true } } }).analyze();
  return results.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .flatMap((violation) => violation.nodes.map((node) => `${violation.id}: ${node.html}`));
}

async function visit(page: Page, path: string, title: string | RegExp) {
  const response = await page.goto(path, { waitUntil: "networkidle" });
  await expect(page).toHaveTitle(title);
  expectSecurityHeaders(response, path);
  return response!;
}

test.describe("signed out", () => {
  for (const { path, title } of SIGNED_OUT_PAGES) {
    test(`${path} is served with the security headers and runs without a CSP violation`, async ({ page }) => {
      const violations = await watchForCspViolations(page);
      await visit(page, path, title);
      if (path === "/docs") await expect(page.getByRole("heading", { name: "Invoicing API", exact: true })).toBeVisible();
      else expect(await seriousAxeViolations(page)).toEqual([]);
      expect(await violations()).toEqual([]);
    });
  }

  test("the sign-in form works under the CSP: its script ran and signs in", async ({ page }) => {
    const violations = await watchForCspViolations(page);
    await visit(page, "/signin?callbackUrl=/acme/settings/plan", "Sign in · Invoicing");
    await new SignInPage(page).signIn("owner@acme.test");
    await expect(page).toHaveURL(/\/acme\/settings\/plan$/);
    expect(await violations()).toEqual([]);
  });

  test("each response gets a nonce of its own", async ({ request }) => {
    const nonces = await Promise.all(
      ["/signin", "/signin", "/docs"].map(async (path) => /'nonce-([^']+)'/.exec((await request.get(path)).headers()["content-security-policy"] ?? "")?.[1]),
    );
    expect(new Set(nonces).size).toBe(3);
  });
});

test.describe("signed in as the owner", () => {
  test.use({ storageState: storageStateOf("owner") });

  for (const { path, title } of OWNER_PAGES) {
    test(`${path} is served with the security headers, runs without a CSP violation and has no serious axe finding`, async ({ page }) => {
      const violations = await watchForCspViolations(page);
      await visit(page, path, title);
      expect(await seriousAxeViolations(page)).toEqual([]);
      expect(await violations()).toEqual([]);
    });
  }

  test("the keys page is interactive under the CSP: the creation dialog opens", async ({ page }) => {
    const violations = await watchForCspViolations(page);
    await visit(page, "/acme/settings/api", "API keys · Invoicing");
    await expect(await new ApiKeysPage(page).openCreateDialog()).toBeVisible();
    await screenshot(page, "csp-create-key-dialog");
    expect(await violations()).toEqual([]);
  });

  test("a page of this very site cannot frame the dashboard", async ({ page, baseURL }) => {
    // A page on the app's own origin (so SameSite cookies go along) that frames the keys page.
    const framing = `${baseURL}/framing-test`;
    await page.route(framing, (route) =>
      route.fulfill({
        contentType: "text/html",
        body: '<!doctype html><title>Framing</title><iframe src="/acme/settings/api" width="800" height="600"></iframe>',
      }),
    );
    const refused = page.waitForEvent("console", (message) => /frame-ancestors/.test(message.text()));
    await page.goto(framing);
    await refused;
    const frame = page.frames().find((candidate) => candidate !== page.mainFrame());
    await expect.poll(() => frame?.url()).not.toContain("/acme/settings/api");
    await expect(page.frameLocator("iframe").getByRole("heading", { name: "API keys" })).toHaveCount(0);
    await screenshot(page, "csp-framing-refused");
  });
});

test.describe("static files", () => {
  test("the favicon and the app icon answer 200 with nosniff", async ({ page, request }) => {
    const favicon = await request.get("/favicon.ico", { maxRedirects: 0 });
    expect(favicon.status()).toBe(200);
    expect(favicon.headers()["content-type"]).toBe("image/x-icon");
    expect(favicon.headers()["x-content-type-options"]).toBe("nosniff");

    await page.goto("/signin");
    const icon = await page.locator('link[rel="icon"][type="image/svg+xml"]').getAttribute("href");
    const svg = await request.get(icon!, { maxRedirects: 0 });
    expect(svg.status()).toBe(200);
    expect(svg.headers()["content-type"]).toBe("image/svg+xml");
    expect(svg.headers()["x-content-type-options"]).toBe("nosniff");
  });

  test("Next's scripts and styles are sent with nosniff", async ({ page, request }) => {
    await page.goto("/signin");
    const assets = await page
      .locator('script[src^="/_next/static/"], link[rel="stylesheet"][href^="/_next/static/"]')
      .evaluateAll((nodes) => nodes.map((node) => node.getAttribute("src") ?? node.getAttribute("href") ?? ""));
    expect(assets.length).toBeGreaterThan(1);
    for (const asset of assets) expect((await request.get(asset)).headers()["x-content-type-options"], asset).toBe("nosniff");
  });
});
