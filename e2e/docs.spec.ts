import { expect, screenshot, test } from "./fixtures";

// Each family of /v1 paths, an operation of it as the sidebar names it, and the path it shows.
const FAMILIES = [
  { tag: "Customers", operation: "List customers", path: "/v1/customers" },
  { tag: "Products", operation: "Archive a product", path: "/v1/products/{id}/archive" },
  { tag: "Invoices", operation: "Finalize a draft", path: "/v1/invoices/{id}/finalize" },
  { tag: "Analytics", operation: "Business metrics", path: "/v1/analytics" },
  { tag: "PDF", operation: "Render an invoice as PDF", path: "/v1/pdf/generate" },
];

test.describe("the API reference at /docs", () => {
  test("is public, loads nothing from outside this deployment, and shows every path family", async ({ page, baseURL }) => {
    const elsewhere: string[] = [];
    page.on("request", (request) => {
      if (new URL(request.url()).origin !== new URL(baseURL!).origin) elsewhere.push(request.url());
    });

    await page.goto("/docs");
    await expect(page).toHaveURL(/\/docs/); // no detour to sign-in
    await expect(page.getByRole("heading", { name: "Invoicing API", exact: true })).toBeVisible();
    await expect(page.getByText("Rounding rule").first()).toBeVisible();
    await screenshot(page, "api-reference");

    for (const { tag, operation, path } of FAMILIES) {
      const sidebarItem = page.getByText(operation, { exact: true }).first();
      if (!(await sidebarItem.isVisible())) await page.getByText(tag, { exact: true }).first().click();
      await sidebarItem.click();
      await expect(page.getByText(path, { exact: true }).first()).toBeVisible();
    }
    await screenshot(page, "api-reference-pdf");
    expect(elsewhere).toEqual([]);
  });

  test("links to the OpenAPI document it renders", async ({ request }) => {
    const response = await request.get("/v1/openapi.json");
    expect(response.ok()).toBe(true);
    const doc = (await response.json()) as { paths: Record<string, unknown> };
    for (const { path } of FAMILIES) expect(Object.keys(doc.paths)).toContain(path);
  });
});
