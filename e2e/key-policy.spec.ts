import { expect, PHONE, screenshot, storageStateOf, test } from "./fixtures";
import { ApiKeysPage } from "./pages/api-keys-page";

test("the key policy refuses a key without expiry, even from a dialog opened before it was set", async ({ browser }) => {
  const adminContext = await browser.newContext({ storageState: storageStateOf("admin") });
  const ownerContext = await browser.newContext({ storageState: storageStateOf("owner") });
  const adminPage = await adminContext.newPage();
  const ownerPage = await ownerContext.newPage();
  const keys = new ApiKeysPage(adminPage);
  const name = `Nightly export ${Date.now()}`;

  // The admin starts a key that never expires, the default while there is no policy.
  await keys.goto();
  const form = await keys.openCreateDialog();
  await form.getByLabel("Name").fill(name);
  await expect(form.getByRole("combobox", { name: "Expiration" })).toHaveText("Never");

  // Meanwhile the owner requires an expiry; the page says which keys in service it would mark.
  await ownerPage.goto("/acme/settings/api/policy");
  await expect(ownerPage.getByRole("heading", { name: "Key policy" })).toBeVisible();
  const save = ownerPage.getByRole("button", { name: "Save policy" });
  await expect(save).toBeDisabled();
  await ownerPage.getByRole("checkbox", { name: "New keys must expire" }).check();
  await expect(ownerPage.getByRole("status").filter({ hasText: "keys in service would be outside this policy" })).toBeVisible();
  await screenshot(ownerPage, "key-policy");
  await save.click();
  await expect(ownerPage.getByText("Key policy saved")).toBeVisible();
  await expect(ownerPage.getByText("Now: Keys must expire.")).toBeVisible();

  // The admin's submission is refused on the field, and nothing is created.
  await form.getByRole("button", { name: "Create key" }).click();
  await expect(form.getByRole("alert").filter({ hasText: "It never expires, and the key policy requires an expiry." }).first()).toBeVisible();
  await screenshot(adminPage, "key-policy-refusal");
  await form.getByRole("button", { name: "Cancel" }).click();
  await expect(keys.row(name)).toHaveCount(0);

  // From the next load on, "Never" is not offered, and older keys are marked with what to do.
  await keys.goto();
  await expect(keys.row("Production billing server").getByText("Outside key policy")).toBeVisible();
  const outsidePolicy = keys.row("Production billing server").getByText("Outside key policy");
  await outsidePolicy.hover();
  await expect(adminPage.getByRole("tooltip")).toContainText("An owner can roll it");
  await screenshot(adminPage, "api-keys-outside-policy");
  // Keyboard focus opens it too, and Escape closes it.
  await outsidePolicy.focus();
  await expect(adminPage.getByRole("tooltip")).toContainText("An owner can roll it");
  await adminPage.keyboard.press("Escape");
  await expect(adminPage.getByRole("tooltip")).toHaveCount(0);
  const reopened = await keys.openCreateDialog();
  await expect(reopened.getByRole("combobox", { name: "Expiration" })).toHaveText("90 days");
  await reopened.getByRole("combobox", { name: "Expiration" }).click();
  await expect(adminPage.getByRole("option", { name: /^Never/ })).toBeDisabled();
  await adminPage.keyboard.press("Escape");
  await reopened.getByRole("button", { name: "Cancel" }).click();

  // The history has the change; then the owner lifts the policy for the other tests.
  await ownerPage.goto("/acme/settings/api/activity?action=key_policy.changed");
  await expect(ownerPage.getByRole("listitem", { name: "Key policy changed: Acme Inc" }).first()).toContainText(/Expiry required:\s*No\s*→\s*Yes/);
  await ownerPage.goto("/acme/settings/api/policy");
  await ownerPage.getByRole("checkbox", { name: "New keys must expire" }).uncheck();
  await ownerPage.getByRole("button", { name: "Save policy" }).click();
  await expect(ownerPage.getByText("Now: no policy, keys may be created without an expiry.")).toBeVisible();
  await adminContext.close();
  await ownerContext.close();
});

test("choosing No maximum after a saved maximum does not keep the expiry it only implied", async ({ browser }) => {
  const context = await browser.newContext({ storageState: storageStateOf("owner") });
  const page = await context.newPage();
  const lifetime = page.getByRole("combobox", { name: "Maximum lifetime" });
  const mustExpire = page.getByRole("checkbox", { name: "New keys must expire" });
  const chooseLifetime = async (label: string) => {
    await lifetime.click();
    await page.getByRole("option", { name: label, exact: true }).click();
  };
  await page.goto("/acme/settings/api/policy", { waitUntil: "networkidle" });
  await expect(mustExpire).not.toBeChecked();

  // Within a visit: the maximum ticks the box, and No maximum gives it back as it was.
  await chooseLifetime("30 days");
  await expect(mustExpire).toBeChecked();
  await expect(mustExpire).toBeDisabled();
  await page.getByRole("button", { name: "Save policy" }).click();
  await expect(page.getByText("Now: Keys expire within 30 days.")).toBeVisible();
  await chooseLifetime("No maximum");
  await expect(mustExpire).not.toBeChecked();

  // On a later visit too: the saved maximum's implied tick is not kept.
  await page.reload({ waitUntil: "networkidle" });
  await chooseLifetime("No maximum");
  await expect(mustExpire).not.toBeChecked();
  await expect(mustExpire).toBeEnabled();
  await page.getByRole("button", { name: "Save policy" }).click();
  await expect(page.getByText("Now: no policy, keys may be created without an expiry.")).toBeVisible();
  await context.close();
});

test.describe("as an admin", () => {
  test.use({ storageState: storageStateOf("admin") });

  test("reads the key policy but cannot set it", async ({ page }) => {
    await page.goto("/acme/settings/api/policy");
    await expect(page.getByRole("heading", { name: "Key policy" })).toBeVisible();
    await expect(page.getByText("Only owners can change the key policy.")).toBeVisible();
    await expect(page.getByRole("button", { name: "Save policy" })).toHaveCount(0);
    await expect(page.getByRole("combobox", { name: "Maximum lifetime" })).toBeDisabled();
    await expect(page.getByRole("checkbox", { name: "New keys must expire" })).toBeDisabled();
    await page.setViewportSize(PHONE);
    await screenshot(page, "key-policy-phone");
  });
});
