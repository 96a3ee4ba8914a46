import { expect, PHONE, screenshot, storageStateOf, test } from "./fixtures";
import { ApiKeysPage } from "./pages/api-keys-page";
import { reportLeak, serveScannerKeys } from "./secret-scanner";
import { workerServer } from "./servers";

const LEAK_URL = "https://github.com/acme-dev/billing-sync/blob/4f2c9e1/.env.production";

test("an owner chooses “alert only”; a reported key keeps working and the alert and history say where it leaked", async ({ browser, request }) => {
  const stopScanner = await serveScannerKeys(workerServer());
  const context = await browser.newContext({ storageState: storageStateOf("owner") });
  const page = await context.newPage();
  try {
    await page.goto("/acme/settings/api/policy");
    const card = page.getByRole("radiogroup", { name: "Leaked keys" });
    await card.getByRole("radio", { name: /^Alert only/ }).check();
    await page.getByRole("button", { name: "Save leaked-key response" }).click();
    await expect(page.getByText("Leaked-key response saved")).toBeVisible();
    await screenshot(page, "key-policy-leaked-keys");

    const keys = new ApiKeysPage(page);
    await keys.revokeLeftovers(/Leak drill \d+/);
    const name = `Leak drill ${Date.now()}`;
    const value = await keys.keepValue(await keys.create(name));

    const answer = await reportLeak(request, [value, "ik_notoneofours"], LEAK_URL);
    expect(answer.status()).toBe(200);
    expect((await answer.json()).map((token: { label: string }) => token.label)).toEqual(["true_positive", "false_positive"]);
    expect((await request.get("/v1/invoices", { headers: { "X-API-Key": value } })).status()).toBe(200);

    await page.goto("/acme/settings/alerts");
    const alert = page.getByRole("listitem").filter({ hasText: `“${name}” was found in public` });
    await expect(alert).toBeVisible();
    await expect(alert).toContainText(LEAK_URL);
    await screenshot(page, "alerts-leaked-key");

    await page.goto("/acme/settings/api/activity?action=api_key.leaked");
    const entry = page.getByRole("listitem", { name: `Key found in public: ${name}` });
    await expect(entry).toContainText("System");
    await expect(entry.getByRole("link", { name: LEAK_URL })).toHaveAttribute("href", LEAK_URL);
    await screenshot(page, "activity-leaked-key");
    await page.setViewportSize(PHONE);
    await screenshot(page, "activity-leaked-key-phone");
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await page.setViewportSize({ width: 1280, height: 860 });

    // Put back what other specs expect: the key gone, leaked keys revoked at once.
    await keys.revokeLeftovers(/Leak drill \d+/);
    await page.goto("/acme/settings/api/policy");
    await page
      .getByRole("radiogroup", { name: "Leaked keys" })
      .getByRole("radio", { name: /^Revoke at once/ })
      .check();
    await page.getByRole("button", { name: "Save leaked-key response" }).click();
    await expect(page.getByText("Leaked-key response saved")).toBeVisible();
  } finally {
    await context.close();
    await stopScanner();
  }
});
