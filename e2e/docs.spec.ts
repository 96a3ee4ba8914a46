import { postmanCollectionJson, type OpenApiDocument } from "../lib/api/postman-collection";
import type { Page } from "@playwright/test";
import { axe, expect, PHONE, screenshot, test } from "./fixtures";

// Each family of /v1 paths, an operation of it as the sidebar names it, and the path it shows.
const FAMILIES = [
  { tag: "Customers", operation: "List customers", path: "/v1/customers" },
  { tag: "Products", operation: "Archive a product", path: "/v1/products/{id}/archive" },
  { tag: "Invoices", operation: "Finalize a draft", path: "/v1/invoices/{id}/finalize" },
  { tag: "Analytics", operation: "Business metrics", path: "/v1/analytics" },
  { tag: "PDF", operation: "Render an invoice as PDF", path: "/v1/pdf/generate" },
];

/**
 * What axe still finds in the markup Scalar renders, which neither its theme nor its configuration
 * can change (docs/features/dashboard.md, "The API reference"): the sidebar's buttons carry
 * aria-selected (aria-allowed-attr), its search button has role="search", which leaves it without
 * a name (button-name, aria-allowed-role), its aside has role="navigation" (aria-allowed-role), and
 * every operation's "Example Responses" card is a region of the same name (landmark-unique).
 * The findings app/docs/route.ts avoids (the client-library tablist, the unnamed key editor, the
 * collapsed tags' "Show More" buttons, the models' nested buttons, the scrolling code samples) are
 * checked, so they stay away. Scalar renders the reference in steps: axe runs once every section is in.
 */
const SCALAR_MARKUP_RULES = ["aria-allowed-attr", "button-name", "aria-allowed-role", "landmark-unique"] as const;

/**
 * Scalar draws the reference in the browser after its bundle loads: seconds on a quiet machine, and
 * past the default 10 s in CI beside the first-click spec's busy loops (one retry in a fresh-clone run).
 */
const REFERENCE_DRAWN = { timeout: 30_000 };
const referenceHeading = (page: Page) => page.getByRole("heading", { name: "Invoicing API", exact: true });

/**
 * What the window shows, not the whole page: the reference is about 33,000 px tall, and a full-page
 * screenshot of it took tens of seconds of CI's two cores for an image no one reads to the end.
 */
const WINDOW_ONLY = { fullPage: false };

test.describe("the API reference at /docs", () => {
  test("is public, loads nothing from outside this deployment, and shows every path family", async ({ page, baseURL }) => {
    test.slow(); // five sidebar sections of the reference: most of a minute on a busy machine
    const elsewhere: string[] = [];
    page.on("request", (request) => {
      if (new URL(request.url()).origin !== new URL(baseURL!).origin) elsewhere.push(request.url());
    });

    await page.goto("/docs");
    // Where the navigation ended, as the browser reported it: toHaveURL asks the page itself, whose
    // thread Scalar can hold for over 10 s while it draws (a CI run read "" that way).
    expect(new URL(page.url()).pathname, "no detour to sign-in").toBe("/docs");
    await expect(referenceHeading(page)).toBeVisible(REFERENCE_DRAWN);
    await expect(page.getByText("Rounding rule").first()).toBeVisible();
    await screenshot(page, "api-reference", WINDOW_ONLY);

    for (const { tag, operation, path } of FAMILIES) {
      const sidebarItem = page.getByText(operation, { exact: true }).first();
      if (!(await sidebarItem.isVisible())) await page.getByText(tag, { exact: true }).first().click();
      await sidebarItem.click();
      await expect(page.getByText(path, { exact: true }).first()).toBeVisible();
    }
    await screenshot(page, "api-reference-pdf", WINDOW_ONLY);
    expect(elsewhere).toEqual([]);
  });

  test("passes axe, colour contrast included, but for the vendor's markup rules the README lists", async ({ page }) => {
    test.slow(); // axe over the whole reference takes most of a minute on a busy machine
    await page.goto("/docs", { waitUntil: "networkidle" });
    await expect(referenceHeading(page)).toBeVisible(REFERENCE_DRAWN);
    // Scalar renders the operations in steps after the page loads: axe looks once all of them are in.
    const doc = (await (await page.request.get("/v1/openapi.json")).json()) as { paths: Record<string, Record<string, unknown>> };
    const operations = Object.values(doc.paths).reduce((sum, methods) => sum + Object.keys(methods).length, 0);
    await expect.poll(() => page.locator(".response-card").count(), { timeout: 30_000 }).toBe(operations);
    // label-content-name-mismatch is one of axe's experimental rules, off unless asked for (and
    // disableRules would drop that choice: it replaces the rules option).
    const rules = { "label-content-name-mismatch": { enabled: true }, ...Object.fromEntries(SCALAR_MARKUP_RULES.map((rule) => [rule, { enabled: false }])) };
    const results = await axe(page, { rules }).analyze();
    expect(results.violations.flatMap((violation) => violation.nodes.map((node) => `${violation.id}: ${node.html}`))).toEqual([]);
  });

  test("links to the Postman collection, which downloads as a fresh conversion of the document this server serves", async ({ page }) => {
    await page.goto("/docs");
    const link = page.getByRole("banner").getByRole("link", { name: "Download the Postman collection", exact: true });
    await expect(link).toBeVisible();
    const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
    expect(download.suggestedFilename()).toBe("invoicing-api.postman_collection.json");

    const response = await page.request.get((await link.getAttribute("href"))!);
    expect(response.status()).toBe(200);
    expect(response.headers()["content-type"]).toBe("application/json");
    expect(response.headers()["content-disposition"]).toBe('attachment; filename="invoicing-api.postman_collection.json"');
    const collection = (await response.json()) as { info: { schema: string } };
    expect(collection.info.schema).toBe("https://schema.getpostman.com/json/collection/v2.1.0/collection.json");
    // The build's file against the converter run now on the document this build's API serves: no
    // drift. Compared indented, so that a difference shows as the lines that differ.
    const document = (await (await page.request.get("/v1/openapi.json")).json()) as OpenApiDocument;
    const indented = (json: string) => JSON.stringify(JSON.parse(json), null, 1);
    expect(indented(await response.text())).toBe(indented(await postmanCollectionJson(document)));
  });

  for (const viewport of [{ width: 1280, height: 860 }, PHONE])
    test(`shows the download link at ${viewport.width} px, in the bar above the reference, without scrolling sideways`, async ({ page }) => {
      await page.setViewportSize(viewport);
      await page.goto("/docs", { waitUntil: "networkidle" });
      await expect(referenceHeading(page)).toBeVisible(REFERENCE_DRAWN);
      const link = page.getByRole("link", { name: "Download the Postman collection", exact: true });
      await expect(link).toBeInViewport();
      expect(
        await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
        "pixels the page is wider than the window",
      ).toBeLessThanOrEqual(0);
      await screenshot(page, `api-reference-postman-link-${viewport.width}`, WINDOW_ONLY);
      // Scrolled down, the bar stays: the link is in reach wherever the reader is.
      await page.getByText("Render an invoice as PDF", { exact: true }).last().scrollIntoViewIfNeeded();
      await expect(link).toBeInViewport();
    });

  test("links to the OpenAPI document it renders", async ({ request }) => {
    const response = await request.get("/v1/openapi.json");
    expect(response.ok()).toBe(true);
    const doc = (await response.json()) as { paths: Record<string, unknown> };
    for (const { path } of FAMILIES) expect(Object.keys(doc.paths)).toContain(path);
  });
});
