import fs from "node:fs/promises";
import { parse as parseCsv } from "csv-parse/sync";
import { expect, PHONE, POSTGRES, screenshot, storageStateOf, test } from "./fixtures";
import { ApiKeysPage } from "./pages/api-keys-page";
import { chooseOption, chosenOption } from "./native-select";

test.describe("as a member", () => {
  test.use({ storageState: storageStateOf("member") });

  test("opens a key's details and sees its 30-day stats", async ({ page }) => {
    const keys = new ApiKeysPage(page);
    await keys.goto();
    await keys.openKey("Production billing server", "key_demo_acme_prod");
    await expect(page.getByRole("heading", { name: "Production billing server" })).toBeVisible();

    // 1. Total requests
    const total = page.getByText("Total requests", { exact: true }).locator("..");
    await expect(total).toContainText(/\d[\d,]*/);
    // 2. The daily chart
    const daily = page.getByRole("img", { name: /^Requests per day from/ });
    await expect(daily).toBeVisible();
    // The chart is drawn once it comes into view (docs/decisions/0064-charts-load-when-seen.md).
    await daily.scrollIntoViewIfNeeded();
    await expect(daily.locator(".recharts-bar-rectangle").first()).toBeVisible();
    // 3. Status code distribution, chart and numbers
    await expect(page.getByRole("img", { name: /Requests per status code/ })).toBeVisible();
    await expect(page.getByRole("table", { name: "Requests per status code" }).getByRole("row").nth(1)).toContainText(/20[01]/);
    // 4. Most accessed endpoints
    await expect(page.getByRole("table", { name: "Most accessed endpoints" }).getByRole("row").nth(1)).toContainText("/v1/");
    // 5. The last 50 calls, newest first
    await expect(page.getByRole("heading", { name: "Last 50 calls" })).toBeVisible();
    await expect(page.getByRole("table", { name: "Last calls" }).getByRole("row")).toHaveCount(51);
    const times = await page
      .getByRole("table", { name: "Last calls" })
      .locator("time")
      .evaluateAll((nodes) => nodes.map((n) => n.getAttribute("datetime") ?? ""));
    expect([...times].sort().reverse()).toEqual(times);
    // Each call opens its request's details (docs/features/audit-log.md#request-details).
    await expect(page.getByRole("table", { name: "Last calls" }).getByRole("link").first()).toHaveAttribute("href", /^\/acme\/settings\/api\/audit\/req_/);

    await expect(page.getByRole("button", { name: /Revoke/ })).toHaveCount(0);
    await screenshot(page, "key-details");
    await page.setViewportSize(PHONE);
    await screenshot(page, "key-details-phone");
  });

  test("another organization's key id is not found", async ({ page }) => {
    const response = await page.goto("/acme/settings/api/keys/key_demo_globex_proto");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
  });

  test("filters the audit log by status class and endpoint, in the URL", async ({ page }) => {
    await page.goto("/acme/settings/api/audit");
    const table = page.getByRole("table", { name: "API requests" });
    await expect(table.getByRole("row")).toHaveCount(51);

    await chooseOption(page.getByRole("combobox", { name: "Status" }), "4xx");
    await expect(page).toHaveURL(/[?&]status=4xx/);
    await expect(table.getByRole("row").nth(1)).toBeVisible();
    for (const status of await table.locator("tbody tr td:nth-child(5)").allInnerTexts()) expect(status).toMatch(/^4\d\d(\s+[a-z_]+)?$/);

    await chooseOption(page.getByRole("combobox", { name: "Endpoint" }), "GET /v1/invoices/{id}");
    await expect(page).toHaveURL(/[?&]endpoint=GET(\+|%20)%2Fv1%2Finvoices%2F%7Bid%7D/);
    await expect(page).toHaveURL(/[?&]status=4xx/);
    await expect(table.getByRole("row").nth(1)).toBeVisible();
    for (const path of await table.locator("tbody tr td:nth-child(4)").allInnerTexts()) expect(path).toMatch(/^\/v1\/invoices\/in_/);
    await screenshot(page, "audit-log");

    // The URL alone reproduces the view, and the back button returns to the previous one.
    const shared = page.url();
    await page.goBack();
    await expect(page).not.toHaveURL(/endpoint=/);
    await expect(chosenOption(page.getByRole("combobox", { name: "Endpoint" }))).toHaveText("All endpoints");
    await page.goto(shared);
    await expect(chosenOption(page.getByRole("combobox", { name: "Endpoint" }))).toHaveText("GET /v1/invoices/{id}");
  });

  test("at 1280 px every filter of the audit log shows its whole words", async ({ page }) => {
    for (const query of ["", "?range=24h&error=plan_no_api_access"]) {
      await page.goto(`/acme/settings/api/audit${query}`);
      const filters = page.getByRole("region", { name: "Filters" });
      await expect(filters.getByRole("combobox", { name: "Status" })).toBeVisible();
      // A value wider than its box is cut off ("Any stat"); the endpoint and key names may be any length.
      // A select's own text cannot be measured, so its chosen label is drawn in the same font beside it.
      const cut = await filters.locator("select:not(#filter-endpoint):not(#filter-key)").evaluateAll((selects) =>
        (selects as HTMLSelectElement[])
          .filter((select) => {
            const style = getComputedStyle(select);
            const probe = document.createElement("span");
            // The font shorthand is empty when the font has settings it cannot express: copy its parts.
            for (const part of ["fontFamily", "fontSize", "fontWeight", "letterSpacing", "fontFeatureSettings"] as const) probe.style[part] = style[part];
            probe.style.whiteSpace = "pre";
            probe.textContent = select.selectedOptions[0]?.textContent ?? "";
            document.body.append(probe);
            const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
            const wide = probe.getBoundingClientRect().width > room;
            probe.remove();
            return wide;
          })
          .map((select) => select.selectedOptions[0]?.textContent),
      );
      expect(cut).toEqual([]);
    }
  });

  test("an organization-less link to the audit log keeps its filters", async ({ page }) => {
    await page.goto("/settings/api/audit?key=key_demo_acme_legacy&status=4xx");
    await expect(page).toHaveURL(/\/acme\/settings\/api\/audit\?key=key_demo_acme_legacy&status=4xx$/);
    await expect(chosenOption(page.getByRole("combobox", { name: "Status" }))).toHaveText("4xx");
  });

  test("pages to older and newer requests", async ({ page }) => {
    await page.goto("/acme/settings/api/audit");
    const firstTimes = page.getByRole("table", { name: "API requests" }).locator("time");
    const newest = await firstTimes.first().getAttribute("datetime");
    await page.getByRole("link", { name: "Older" }).click();
    await expect(page).toHaveURL(/[?&]before=/);
    const olderFirst = await firstTimes.first().getAttribute("datetime");
    expect(olderFirst! <= newest!).toBe(true);
    await page.getByRole("link", { name: "Newer" }).click();
    await expect(page).toHaveURL(/[?&]after=/);
    await expect(firstTimes.first()).toHaveAttribute("datetime", newest!);
    await expect(page.getByRole("button", { name: "Newer" })).toBeDisabled();
  });

  test("exports the filtered rows as CSV", POSTGRES, async ({ page }) => {
    await page.goto("/acme/settings/api/audit?status=5xx&range=30d");
    const table = page.getByRole("table", { name: "API requests" });
    const firstPath = await table.locator("tbody tr td:nth-child(4)").first().innerText();
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Export CSV" }).click()]);
    expect(download.suggestedFilename()).toMatch(/^audit-log-acme-\d{4}-\d\d-\d\d\.csv$/);
    const records = parseCsv(await fs.readFile((await download.path())!, "utf8"), { columns: true }) as Record<string, string>[];
    expect(records.length).toBeGreaterThan(0);
    expect(records.every((r) => /^5\d\d$/.test(r.status!))).toBe(true);
    expect(records[0]!.path).toBe(firstPath);
    expect(Object.keys(records[0]!)).toEqual([
      "time",
      "request_id",
      "key_id",
      "key_name",
      "key_hint",
      "key_status",
      "method",
      "path",
      "endpoint",
      "status",
      "error_code",
      "duration_ms",
      "ip",
      "user_agent",
    ]);
    await page.setViewportSize(PHONE);
    await screenshot(page, "audit-log-phone");
  });
});

test.describe("as a guest", () => {
  test.use({ storageState: storageStateOf("guest") });

  test("has no audit log page and cannot export it", async ({ page }) => {
    await page.goto("/acme/settings/api");
    await expect(page.getByRole("navigation", { name: "Settings" }).getByRole("link", { name: "Audit log" })).toHaveCount(0);
    expect((await page.goto("/acme/settings/api/audit"))?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
    await expect(page.getByRole("table")).toHaveCount(0);
    const response = await page.request.get("/acme/settings/api/audit/export");
    expect(response.status()).toBe(403);
    expect(await response.text()).not.toContain("req_");
  });

  test("still sees a key's usage", async ({ page }) => {
    await page.goto("/acme/settings/api/keys/key_demo_acme_staging");
    await expect(page.getByRole("heading", { name: "Staging" })).toBeVisible();
    await expect(page.getByText("Total requests", { exact: true })).toBeVisible();
    await expect(page.getByRole("link", { name: /All calls in the audit log/ })).toHaveCount(0);
  });
});
