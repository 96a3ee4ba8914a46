import { expect, PHONE, POSTGRES, screenshot, storageStateOf, test } from "./fixtures";
import { ApiKeysPage } from "./pages/api-keys-page";
import { chosenOption } from "./native-select";

const KEY_FORMAT = /^ik_[0-9A-Za-z]{32}$/;

test.describe.serial("a key's life: an admin creates it, the owner revokes it", POSTGRES, () => {
  const name = `Deploy server ${Date.now()}`;
  let value = "";

  test("an admin creates a key, copies it once and sees it listed", async ({ browser }) => {
    const context = await browser.newContext({ storageState: storageStateOf("admin"), permissions: ["clipboard-read", "clipboard-write"] });
    const page = await context.newPage();
    const keys = new ApiKeysPage(page);
    await keys.goto();
    await screenshot(page, "api-keys");

    const form = await keys.openCreateDialog();
    await form.getByLabel("Name").fill("test");
    await expect(form.getByRole("status").filter({ hasText: /purpose|where/i })).toBeVisible();
    await expect(form.getByText("4/100")).toBeVisible();
    await screenshot(page, "create-key-dialog");
    const shown = await keys.create(name, form);
    const field = shown.getByLabel("API key");
    await expect(field).toHaveValue(KEY_FORMAT);
    await expect(field).toHaveAttribute("readonly", "");
    value = await field.inputValue();
    await expect(shown.getByText("This key will not be shown again")).toBeVisible();

    await shown.getByRole("button", { name: "Copy" }).click();
    await expect(shown.getByRole("button", { name: "Copied" })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(value);
    await screenshot(page, "create-key-shown");

    // Escape asks before the key is lost; "Done" waits for the confirmation.
    await page.keyboard.press("Escape");
    const confirmClose = page.getByRole("alertdialog", { name: "Close without saving the key?" });
    await expect(confirmClose).toBeVisible();
    await confirmClose.getByRole("button", { name: "Keep it open" }).click();
    await expect(shown.getByRole("button", { name: "Done" })).toBeDisabled();
    await shown.getByRole("checkbox", { name: "I have copied this key" }).check();
    await shown.getByRole("button", { name: "Done" }).click();
    await expect(shown).toBeHidden();

    const row = keys.row(name);
    await expect(row).toContainText(`${value.slice(0, 7)}…${value.slice(-4)}`);
    await expect(row).toContainText("Adam Alvarez");
    await expect(row).toContainText("Never used");
    await expect(row).toContainText("Active");
    // The value is gone for good: not in the page after the dialog closed.
    expect(await page.content()).not.toContain(value);
    // Admins cannot revoke.
    await expect(page.getByRole("button", { name: /^Revoke/ })).toHaveCount(0);
    await context.close();
  });

  test("the owner revokes it, the list marks it revoked and the API refuses it", async ({ browser, request }) => {
    expect(value).toMatch(KEY_FORMAT);
    expect((await request.get("/v1/invoices", { headers: { "X-API-Key": value } })).status()).toBe(200);

    const context = await browser.newContext({ storageState: storageStateOf("owner") });
    const page = await context.newPage();
    const keys = new ApiKeysPage(page);
    await keys.goto();
    await keys
      .row(name)
      .getByRole("button", { name: `Revoke ${name}` })
      .click();
    const dialog = page.getByRole("alertdialog", { name: "Revoke API key" });
    await expect(dialog).toContainText(name);
    await expect(dialog).toContainText(/Last used (.+ ago|just now)|Never used/);
    await expect(dialog).toContainText("fail at once");
    // "Other" needs a note: the dialog says so on the field and revokes nothing.
    await dialog.getByRole("combobox", { name: "Reason (optional)" }).click();
    await page.getByRole("option", { name: "Other", exact: true }).click();
    await dialog.getByRole("button", { name: "Revoke key" }).click();
    await expect(dialog.getByRole("alert")).toHaveText("Say in a few words why the key is revoked.");
    await dialog.getByRole("combobox", { name: "Reason (optional)" }).click();
    await page.getByRole("option", { name: "No longer used" }).click();
    await dialog.getByRole("textbox", { name: "Note (optional)" }).fill("The CI job moved to the new billing runner.");
    await screenshot(page, "revoke-key-dialog");
    await dialog.getByRole("button", { name: "Revoke key" }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText(`Revoked “${name}”`)).toBeVisible();

    // Active is the default filter: the key leaves it and shows under Revoked.
    await expect(keys.row(name)).toHaveCount(0);
    await keys.showStatus("Revoked");
    await expect(keys.row(name)).toContainText("Revoked");
    await expect(keys.row(name).getByRole("button", { name: /Revoke/ })).toHaveCount(0);

    const refused = await request.get("/v1/invoices", { headers: { "X-API-Key": value } });
    expect(refused.status()).toBe(401);
    expect((await refused.json()).error.code).toBe("api_key_revoked");

    // The key's page keeps the reason, and its history says who revoked it and why.
    await keys.row(name).getByRole("link", { name, exact: true }).click();
    await expect(page.getByRole("heading", { name })).toBeVisible();
    await expect(page.getByText("No longer used", { exact: true }).first()).toBeVisible();
    await expect(page.getByText("The CI job moved to the new billing runner.").first()).toBeVisible();
    await expect(page.getByRole("list", { name: "History of this key" }).getByRole("listitem", { name: `Key revoked: ${name}` })).toContainText("Olivia Owens");
    await expect(page.getByRole("button", { name: /^Rename/ })).toHaveCount(0);
    await context.close();
  });
});

test.describe("as an admin", () => {
  test.use({ storageState: storageStateOf("admin") });

  test("renames a key on its page, and the history records the old and new name", async ({ page }) => {
    await page.goto("/acme/settings/api/keys/key_demo_acme_ios");
    await expect(page.getByRole("heading", { name: "iOS app backend" })).toBeVisible();
    // Last use with its client and route.
    await expect(page.getByText(/from \d+\.\d+\.\d+\.\d+/).first()).toBeVisible();
    await expect(page.getByRole("button", { name: /^Revoke/ })).toHaveCount(0);

    await page.getByRole("button", { name: "Rename iOS app backend" }).click();
    const dialog = page.getByRole("dialog", { name: "Rename API key" });
    await expect(dialog.getByRole("button", { name: "Save name" })).toBeDisabled();
    await dialog.getByLabel("Name").fill("iOS app backend (App Store build)");
    await screenshot(page, "rename-key-dialog");
    await dialog.getByRole("button", { name: "Save name" }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole("heading", { name: "iOS app backend (App Store build)" })).toBeVisible();
    const entry = page.getByRole("list", { name: "History of this key" }).getByRole("listitem", { name: "Key renamed: iOS app backend (App Store build)" });
    await expect(entry).toContainText("Adam Alvarez");
    await expect(entry).toContainText(/iOS app backend\s*→\s*iOS app backend \(App Store build\)/);

    // Back to the seed's name, for the other tests.
    await page.getByRole("button", { name: "Rename iOS app backend (App Store build)" }).click();
    await dialog.getByLabel("Name").fill("iOS app backend");
    await dialog.getByRole("button", { name: "Save name" }).click();
    await expect(page.getByRole("heading", { name: "iOS app backend", exact: true })).toBeVisible();
  });
});

for (const role of ["member", "guest"] as const) {
  test.describe(`as a ${role}`, () => {
    test.use({ storageState: storageStateOf(role) });

    test("sees the keys and the plan banner but no create or revoke controls", async ({ page }) => {
      const keys = new ApiKeysPage(page);
      await keys.goto();
      await expect(keys.row("Production billing server")).toBeVisible();
      await expect(page.getByText("API calls this month")).toBeVisible();
      await expect(page.getByRole("progressbar")).toBeVisible();
      await expect(page.getByRole("button", { name: "Create API key" })).toHaveCount(0);
      await expect(page.getByRole("button", { name: /^Revoke/ })).toHaveCount(0);
      if (role === "member") {
        await page.setViewportSize(PHONE);
        await expect(page.getByText("API calls this month")).toBeVisible();
        await screenshot(page, "api-keys-phone");
      }
    });
  });
}

test("an admin creates a key that expires in 7 days: the dialog, the list and the API say when", async ({ browser, request }) => {
  const context = await browser.newContext({ storageState: storageStateOf("admin") });
  const owner = await browser.newContext({ storageState: storageStateOf("owner") });
  const ownerKeys = new ApiKeysPage(await owner.newPage());
  await ownerKeys.revokeLeftovers(/Contractor laptop \d+/);
  const page = await context.newPage();
  const keys = new ApiKeysPage(page);
  await keys.goto();
  const name = `Contractor laptop ${Date.now()}`;
  const form = await keys.openCreateDialog();
  await form.getByRole("combobox", { name: "Expiration" }).click();
  await page.getByRole("option", { name: "7 days", exact: true }).click();
  await screenshot(page, "create-key-expiry");
  const shown = await keys.create(name, form);
  await expect(shown).toContainText(/This key expires \d{4}-\d{2}-\d{2} at \d{2}:\d{2} UTC\./);
  const value = await shown.getByLabel("API key").inputValue();
  await shown.getByRole("checkbox", { name: "I have copied this key" }).check();
  await shown.getByRole("button", { name: "Done" }).click();

  await expect(keys.row(name)).toContainText(/Expires in (6|7) days/);
  await keys.showStatus("Expiring within 7 days");
  await expect(keys.row(name)).toBeVisible();
  await expect(keys.row("Production billing server")).toHaveCount(0);
  await screenshot(page, "api-keys-expiring");

  const response = await request.get("/v1/invoices", { headers: { "X-API-Key": value } });
  expect(response.status()).toBe(200);
  const expires = Date.parse(response.headers()["x-api-key-expires"]!);
  expect(expires - Date.now()).toBeGreaterThan(6.9 * 86_400_000);
  expect(expires - Date.now()).toBeLessThanOrEqual(7 * 86_400_000);
  await ownerKeys.revokeLeftovers(/Contractor laptop \d+/);
  await Promise.all([context.close(), owner.close()]);
});

test.describe("sorting and filtering", () => {
  test.use({ storageState: storageStateOf("member") });

  test("sorts by name and shows revoked keys on request", async ({ page }) => {
    const keys = new ApiKeysPage(page);
    await keys.goto();
    await page.getByRole("link", { name: "Name", exact: true }).click();
    await expect(page).toHaveURL(/\?sort=name$/);
    const names = await keys.table.locator("tbody tr td:first-child").allInnerTexts();
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
    await keys.showStatus("All keys");
    await expect(keys.row("Legacy CSV importer")).toContainText("Revoked");
  });

  test("keeps the status filter in the URL, so a filtered list survives a reload and can be shared", async ({ page }) => {
    const keys = new ApiKeysPage(page);
    const filter = page.getByRole("combobox", { name: "Filter by status" });
    await keys.goto();
    await keys.showStatus("Revoked");
    await expect(page).toHaveURL(/\/acme\/settings\/api\?status=revoked$/);
    await expect(keys.row("Legacy CSV importer")).toBeVisible();
    await page.reload({ waitUntil: "networkidle" });
    await expect(chosenOption(filter)).toHaveText("Revoked");
    await expect(keys.row("Legacy CSV importer")).toBeVisible();
    await expect(keys.row("Production billing server")).toHaveCount(0);

    // A shared link to another filter, and back to the default, which the URL leaves out.
    await page.goto("/acme/settings/api?status=expired", { waitUntil: "networkidle" });
    await expect(chosenOption(filter)).toHaveText("Expired");
    await expect(keys.row("Black Friday load test")).toBeVisible();
    await keys.showStatus("Active");
    await expect(page).toHaveURL(/\/acme\/settings\/api$/);
    await expect(keys.row("Production billing server")).toBeVisible();
  });
});

test("at the plan's limit of live keys, the create button says so and the dialog offers test keys, counted apart", async ({ browser }) => {
  const context = await browser.newContext({ storageState: storageStateOf("trialOwner") });
  const page = await context.newPage();
  // Globex's trial allows 2 active live keys and the seed has 1: this spec adds the second.
  const keys = new ApiKeysPage(page, "globex");
  await keys.revokeLeftovers(/Second prototype \d+/);
  const create = page.getByRole("button", { name: "Create API key" });
  await expect(create).toBeEnabled();
  // The key that reaches the limit: its one-time value stays on screen while the page behind it
  // says the limit (the dialog must not be unmounted with the button's old state).
  await keys.createAndDismiss(`Second prototype ${Date.now()}`);
  const liveFull = "Your Trial plan allows 2 active live keys (test keys are counted apart). Revoke a live key you no longer use, or change the plan.";
  // Test keys are counted apart: the button stays on, with the live limit beside it.
  await expect(create).toBeEnabled();
  await expect(create).toHaveAccessibleDescription(liveFull);
  await screenshot(page, "api-keys-at-limit");
  await page.setViewportSize(PHONE);
  await expect(page.getByText(liveFull)).toBeVisible();
  await screenshot(page, "api-keys-at-limit-phone");
  await page.setViewportSize({ width: 1280, height: 860 });
  const form = await keys.openCreateDialog();
  await expect(form.getByRole("radio", { name: /^Live/ })).toBeDisabled();
  await expect(form.getByRole("radio", { name: /^Test/ })).toBeChecked();
  await expect(form.getByText(liveFull)).toBeVisible();
  await page.keyboard.press("Escape");
  await keys.revokeLeftovers(/Second prototype \d+/);
  await expect(create).not.toHaveAccessibleDescription(liveFull);
  await context.close();
});

test("an admin creates a test key: the dialog asks Live or Test, shows the ik_test_ value, and the list marks it Test", async ({ browser }) => {
  const name = `CI test key ${Date.now()}`;
  const context = await browser.newContext({ storageState: storageStateOf("admin") });
  const page = await context.newPage();
  const keys = new ApiKeysPage(page);
  await keys.goto();
  const form = await keys.openCreateDialog();
  const live = form.getByRole("radio", { name: /^Live/ });
  const test = form.getByRole("radio", { name: /^Test/ });
  await expect(live).toBeChecked();
  await expect(test).toHaveAccessibleName(/Test keys see only test data: nothing they do touches your real invoices or quota\./);
  await test.check();
  await screenshot(page, "create-test-key-dialog");
  await page.setViewportSize(PHONE);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  await screenshot(page, "create-test-key-dialog-phone");
  await page.setViewportSize({ width: 1280, height: 860 });

  const shown = await keys.create(name, form);
  await expect(shown).toContainText("a test key, for test data only");
  const value = await keys.keepValue(shown);
  expect(value).toMatch(/^ik_test_[0-9A-Za-z]{32}$/);
  // Made in live mode, the test key is shown where test keys are: the list in test mode.
  await expect(page).toHaveURL(/[?&]mode=test/);
  const row = keys.row(name);
  await expect(row).toContainText(`ik_test_${value.slice(8, 12)}…${value.slice(-4)}`);
  await expect(row.getByText("Test", { exact: true })).toBeVisible();
  await expect(keys.row("Production billing server")).toHaveCount(0);
  await screenshot(page, "api-keys-test-badge");
  await page.setViewportSize(PHONE);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  await screenshot(page, "api-keys-test-badge-phone");
  const keyId = (await row.getByRole("link", { name, exact: true }).getAttribute("href"))!.split("/").pop()!;
  await keys.openKey(name, keyId);
  // The key's facts, then its history's "Key created" entry.
  await expect(page.locator("dt", { hasText: "Mode" }).locator("+ dd")).toHaveText([/^\s*Test$/, /^\s*Test$/]);
  await context.close();

  const owner = await browser.newContext({ storageState: storageStateOf("owner") });
  await new ApiKeysPage(await owner.newPage()).revokeLeftovers(/CI test key \d+/, "test");
  await owner.close();
});
