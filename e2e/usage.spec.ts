import fs from "node:fs/promises";
import { parse as parseCsv } from "csv-parse/sync";
import { expect, PHONE, screenshot, storageStateOf, test } from "./fixtures";
import { UsagePage } from "./pages/usage-page";
import { chosenOption } from "./native-select";

test.describe("as a member", () => {
  test.use({ storageState: storageStateOf("member") });

  test("watches usage over 7 days, for one key by endpoint, and follows a row to the audit log", async ({ page }) => {
    const usage = new UsagePage(page);
    await usage.goto();
    await expect(page.getByRole("heading", { name: "Usage", exact: true })).toBeVisible();
    await expect(page.getByRole("region", { name: "Totals" })).toContainText(/Requests\s*[\d,]+/);
    await expect(
      page
        .getByRole("img", { name: /^Requests per hour, stacked by status class/ })
        .locator(".recharts-bar-rectangle")
        .first(),
    ).toBeVisible();
    await screenshot(page, "usage");
    await page.setViewportSize(PHONE);
    await screenshot(page, "usage-phone");
    await page.setViewportSize({ width: 1280, height: 900 });

    await usage.choose("Date range", "Last 7 days", /[?&]range=7d/);
    await expect(page.getByRole("region", { name: "Totals" })).toContainText("Last 7 days");
    await expect(page.getByRole("img", { name: /^Share of requests answered 4xx and 5xx per hour/ })).toBeVisible();
    await expect(page.getByRole("img", { name: /^Latency p50, p95 and p99 per hour/ })).toBeVisible();

    await usage.choose("API key", /^Production billing server/, /[?&]key=key_demo_acme_prod/);
    await expect(page).toHaveURL(/[?&]range=7d/);
    const byKey = usage.table("by key");
    await expect(byKey.getByRole("row")).toHaveCount(2);
    await expect(byKey.getByRole("row").nth(1)).toContainText("Production billing server");

    await usage.tab("By endpoint").click();
    const byEndpoint = usage.table("by endpoint");
    await expect(byEndpoint.getByRole("row").nth(2)).toBeVisible();
    await usage.sortDescending(byEndpoint, "p95");
    const p95 = await usage.latencies(byEndpoint, 7);
    expect(p95.length).toBeGreaterThan(1);
    expect(p95).toEqual([...p95].sort((a, b) => b - a));

    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download CSV" }).click()]);
    expect(download.suggestedFilename()).toMatch(/^usage-by-endpoint-acme-\d{4}-\d\d-\d\d\.csv$/);
    const records = parseCsv(await fs.readFile((await download.path())!, "utf8"), { columns: true }) as Record<string, string>[];
    expect(records).toHaveLength(await byEndpoint.locator("tbody tr").count());
    for (const record of records) expect(record.key_id).toBe("");
    const slowest = await byEndpoint.locator("tbody tr").first().locator("td").first().innerText();
    const [method, route] = slowest.split(/\s+/);
    expect(records.map((record) => record.endpoint)).toContain(`${method} ${route}`);

    await byEndpoint
      .locator("tbody tr")
      .first()
      .getByRole("link", { name: /in the audit log$/ })
      .click();
    // The same 7 UTC days, today included, as the audit log's custom dates.
    const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);
    await expect(page).toHaveURL(/\/settings\/api\/audit\?/);
    await expect(page).toHaveURL(new RegExp(`[?&]range=custom&from=${day(6)}&to=${day(0)}&`));
    await expect(page).toHaveURL(/[?&]key=key_demo_acme_prod/);
    await expect(chosenOption(page.getByRole("combobox", { name: "Endpoint" }))).toHaveText(`${method} ${route}`);
    await expect(chosenOption(page.getByRole("combobox", { name: "Date range" }))).toHaveText("Custom dates");
    await expect(page.getByLabel("From (UTC day)")).toHaveValue(day(6));
    const paths = await page.getByRole("table", { name: "API requests" }).locator("tbody tr td:nth-child(4)").allInnerTexts();
    expect(paths.length).toBeGreaterThan(0);
    for (const row of await page.getByRole("table", { name: "API requests" }).locator("tbody tr td:nth-child(2)").allInnerTexts())
      expect(row).toContain("Production billing server");
  });

  test("a chart is drawn once it comes into view, and a sorted breakdown is a link", async ({ page }) => {
    // docs/decisions/0064-charts-load-when-seen.md: on a phone the charts sit below the first screen.
    await page.setViewportSize(PHONE);
    const usage = new UsagePage(page);
    await usage.goto("?table=endpoint&sort=p95Ms&order=desc");
    const requests = page.getByRole("img", { name: /^Requests per hour, stacked by status class/ });
    await expect(requests).toBeVisible();
    await expect(page.locator(".recharts-surface")).toHaveCount(0);
    await requests.scrollIntoViewIfNeeded();
    await expect(requests.locator(".recharts-bar-rectangle").first()).toBeVisible();

    await expect(usage.tab("By endpoint")).toHaveAttribute("aria-selected", "true");
    const byEndpoint = usage.table("by endpoint");
    await expect(byEndpoint.getByRole("columnheader", { name: "p95", exact: true })).toHaveAttribute("aria-sort", "descending");
    const p95 = await usage.latencies(byEndpoint, 7);
    expect(p95).toEqual([...p95].sort((a, b) => b - a));
  });

  test("a window without traffic says so and how to change it", async ({ page }) => {
    const usage = new UsagePage(page);
    await usage.goto("?range=custom&from=2026-01-01&to=2026-01-02");
    await expect(page.getByRole("heading", { name: /^No requests in/ })).toBeVisible();
  });
});

test.describe("as Alex, an admin of Globex and the owner of Solo Studio", () => {
  test.use({ storageState: storageStateOf("multi") });

  test("Solo Studio's usage says its plan has no API access and links to the Plan page, with no call to make", async ({ page }) => {
    await new UsagePage(page, "solo-studio").goto();
    await expect(page.getByRole("heading", { name: "The Solo plan has no API access" })).toBeVisible();
    await expect(page.getByText(/curl|X-API-Key/)).toHaveCount(0);
    await screenshot(page, "usage-solo");
    await page.setViewportSize(PHONE);
    await screenshot(page, "usage-solo-phone");
    await page.getByRole("link", { name: "Go to Plan" }).click();
    await expect(page).toHaveURL(/\/solo-studio\/settings\/plan$/);
  });

  test("the latency lines break over the hours without requests, as the error-rate lines do", async ({ page }) => {
    // Globex's one key makes about two calls a day: most hours of the week are quiet.
    await new UsagePage(page, "globex").goto("?range=7d");
    const segments = async (chart: RegExp) => {
      const figure = page.getByRole("img", { name: chart });
      // Charts are drawn once in view; a line of isolated hours has no area to be "visible", so wait for it to be drawn.
      await figure.scrollIntoViewIfNeeded();
      const line = figure.locator("path.recharts-line-curve").first();
      await expect(line).toHaveAttribute("d", /M/);
      return ((await line.getAttribute("d")) ?? "").match(/M/g)?.length ?? 0;
    };
    const rateSegments = await segments(/^Share of requests answered 4xx and 5xx per hour/);
    expect(rateSegments).toBeGreaterThan(1);
    expect(await segments(/^Latency p50, p95 and p99 per hour/)).toBe(rateSegments);
  });
});

test.describe("as a guest", () => {
  test.use({ storageState: storageStateOf("guest") });

  test("Usage does not exist, and the settings do not list it", async ({ page }) => {
    const response = await new UsagePage(page).goto();
    expect(response?.status()).toBe(404);
    await page.goto("/acme/settings/api");
    await expect(page.getByRole("navigation", { name: "Settings" }).getByRole("link", { name: "Audit log" })).toHaveCount(0);
    await expect(page.getByRole("navigation", { name: "Settings" }).getByRole("link", { name: "Usage" })).toHaveCount(0);
  });
});
