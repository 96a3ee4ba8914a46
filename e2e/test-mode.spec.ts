import type { Page } from "@playwright/test";
import { ageSessions, DEMO_PASSWORD, expect, PHONE, screenshot, storageStateOf, SUDO_MODE_SECONDS, sudoDialog, test, USERS } from "./fixtures";
import { ApiKeysPage } from "./pages/api-keys-page";
import { ownSession } from "./pages/sign-in-page";
import { UsagePage } from "./pages/usage-page";

// Test mode in the dashboard (docs/features/test-mode.md): an admin builds against test data and
// sees only test traffic while the switch is on; the owner clears the test books in sudo mode.

const testMode = (page: Page) => page.getByRole("switch", { name: "Test mode" });
const banner = (page: Page) => page.getByRole("status").filter({ hasText: "Test mode." });

async function fitsThePhone(page: Page, name: string) {
  await page.setViewportSize(PHONE);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  await screenshot(page, `${name}-phone`);
  await page.setViewportSize({ width: 1280, height: 860 });
}

test.describe.serial("test mode", () => {
  const stamp = Date.now();
  const name = `CI e2e ${stamp}`;
  const liveName = `Live e2e ${stamp}`;
  let testKey = "";
  let liveCustomer = "";

  test("an admin makes a test key, calls the API with it, and in test mode sees only test traffic", async ({ browser, request }) => {
    const context = await browser.newContext({ storageState: storageStateOf("admin") });
    const page = await context.newPage();
    const keys = new ApiKeysPage(page);
    await keys.goto();
    const form = await keys.openCreateDialog();
    await form.getByRole("radio", { name: /^Test/ }).check();
    testKey = await keys.keepValue(await keys.create(name, form));
    expect(testKey).toMatch(/^ik_test_/);
    // Shown where test keys are, the list in test mode, where a new key is a test key unless changed.
    await expect(page).toHaveURL(/[?&]mode=test/);
    const liveForm = await keys.openCreateDialog();
    await expect(liveForm.getByRole("radio", { name: /^Test/ })).toBeChecked();
    await liveForm.getByRole("radio", { name: /^Live/ }).check();
    const liveKey = await keys.keepValue(await keys.create(liveName, liveForm));
    expect(liveKey).toMatch(/^ik_[0-9A-Za-z]{32}$/);
    await expect(page).not.toHaveURL(/mode=test/);

    // Each key writes its own books: the test customer is not the live one's.
    const asTest = { headers: { "X-API-Key": testKey } };
    const created = await request.post("/v1/customers", { ...asTest, data: { name: "E2E test customer" } });
    expect(created.status()).toBe(201);
    expect(await created.json()).toMatchObject({ livemode: false });
    const asLive = { headers: { "X-API-Key": liveKey } };
    liveCustomer = ((await (await request.post("/v1/customers", { ...asLive, data: { name: "E2E live customer" } })).json()) as { id: string }).id;
    expect((await request.get(`/v1/customers/${liveCustomer}`, asTest)).status()).toBe(404);

    // On: the URL says so, a banner says so, and the list holds the test keys only.
    await testMode(page).click();
    await expect(page).toHaveURL(/[?&]mode=test/);
    await expect(testMode(page)).toHaveAttribute("aria-checked", "true");
    await expect(banner(page)).toBeVisible();
    await expect(keys.row(name)).toBeVisible();
    await expect(keys.row("Production billing server")).toHaveCount(0);
    await expect(page.getByRole("region", { name: "Test data" })).toBeVisible();
    await screenshot(page, "test-mode-keys");
    await fitsThePhone(page, "test-mode-keys");

    // The settings navigation keeps the mode: usage and the audit log show the test keys' traffic.
    await page.getByRole("navigation", { name: "Settings" }).getByRole("link", { name: "Usage" }).click();
    await expect(page).toHaveURL(/\/settings\/api\/usage\?mode=test/);
    const usage = new UsagePage(page);
    await expect(usage.table("by key")).toContainText(name);
    await expect(usage.table("by key")).not.toContainText("Production billing server");
    await screenshot(page, "test-mode-usage");
    await fitsThePhone(page, "test-mode-usage");

    await page.getByRole("navigation", { name: "Settings" }).getByRole("link", { name: "Audit log" }).click();
    await expect(page).toHaveURL(/\/settings\/api\/audit\?mode=test/);
    const log = page.getByRole("table", { name: "API requests" });
    await expect(log).toContainText(name);
    await expect(log).not.toContainText("Production billing server");
    await screenshot(page, "test-mode-audit");
    await fitsThePhone(page, "test-mode-audit");
    // A row opens its request in its own mode; the same request in live mode says where it is.
    const requestLink = log.locator('a[href*="/audit/req_"]').first();
    const href = (await requestLink.getAttribute("href"))!;
    expect(href).toMatch(/\/audit\/req_[^?]+\?mode=test$/);
    await page.goto(href);
    await expect(page.getByRole("main").getByText("Test mode", { exact: true })).toBeVisible();
    await page.goto(href.replace("?mode=test", ""));
    await expect(page.getByRole("heading", { name: "This is a test request" })).toBeVisible();
    await page.getByRole("link", { name: "View it in test mode" }).click();
    await expect(page).toHaveURL(/\?mode=test$/);
    await page.goto("/acme/settings/api/audit?mode=test");

    // Off: live traffic only, and no banner.
    await testMode(page).click();
    await expect(page).not.toHaveURL(/mode=test/);
    await expect(banner(page)).toHaveCount(0);
    await expect(log).toContainText("Production billing server");
    await expect(log).not.toContainText(name);
    await context.close();
  });

  test("the owner deletes all test data in sudo mode; live data and every key stay", async ({ browser, request }) => {
    expect(testKey).not.toBe("");
    // A session of its own, past its sudo window, so the question comes.
    const { context, page, signedInAt } = await ownSession(browser, USERS.owner.email, "/acme/settings/api?mode=test");
    expect(await ageSessions(USERS.owner.email, signedInAt, SUDO_MODE_SECONDS)).toBe(1);

    const card = page.getByRole("region", { name: "Test data" });
    await expect(card).toContainText(/Your test keys have made \d+ customers?/);
    await card.getByRole("button", { name: "Delete all test data" }).click();
    const confirm = page.getByRole("alertdialog", { name: "Delete all test data?" });
    await expect(confirm).toContainText("Your live data, every key and the request history stay.");
    await screenshot(page, "delete-test-data");
    await fitsThePhone(page, "delete-test-data");
    await confirm.getByRole("button", { name: "Delete all test data" }).click();
    const question = sudoDialog(page);
    await expect(question).toBeVisible();
    await question.getByLabel("Password").fill(DEMO_PASSWORD);
    await question.getByRole("button", { name: "Confirm" }).click();
    await expect(page.getByText("Test data deleted")).toBeVisible();
    await expect(card).toContainText("Your test keys have made no customers, products or invoices yet.");

    // The keys stay, and so does the live customer; the test key finds no customer now.
    await expect(new ApiKeysPage(page).row(name)).toBeVisible();
    const asTest = { headers: { "X-API-Key": testKey } };
    expect(await (await request.get("/v1/customers", asTest)).json()).toMatchObject({ data: [] });
    await page.goto("/acme/settings/api");
    await expect(new ApiKeysPage(page).row(liveName)).toBeVisible();
    await context.close();

    const owner = await browser.newContext({ storageState: storageStateOf("owner") });
    const ownersKeys = new ApiKeysPage(await owner.newPage());
    await ownersKeys.revokeLeftovers(/Live e2e \d+/);
    await ownersKeys.revokeLeftovers(/CI e2e \d+/, "test");
    await owner.close();
    expect(liveCustomer).toMatch(/^cus_/);
  });
});
