import { expect, PHONE, screenshot, storageStateOf, test } from "./fixtures";

test("a member reads the bell's alerts and marks them read; the count stays read on the next load", async ({ browser }) => {
  const context = await browser.newContext({ storageState: storageStateOf("member") });
  const page = await context.newPage();
  await page.goto("/acme/settings/api");
  // The seed's partner key expires in 3 days: its alert waits under the bell.
  const bell = page.getByRole("button", { name: /^Alerts, \d+ unread$/ });
  await bell.click();
  const popover = page.getByRole("dialog");
  await expect(popover.getByText("“Partner sandbox (Initech)” expires soon")).toBeVisible();
  await expect(popover.getByRole("img", { name: "Unread" }).first()).toBeVisible();
  await screenshot(page, "alerts-bell");
  await popover.getByRole("button", { name: "Mark all as read" }).click();
  await expect(page.getByRole("button", { name: "Alerts", exact: true })).toBeVisible();
  await expect(popover.getByRole("img", { name: "Unread" })).toHaveCount(0);

  await page.reload();
  await expect(page.getByRole("button", { name: "Alerts", exact: true })).toBeVisible();
  // The link leads to the key the alert is about.
  await page.getByRole("button", { name: "Alerts", exact: true }).click();
  await page.getByRole("dialog").getByRole("link", { name: "Open the key" }).first().click();
  await expect(page.getByRole("heading", { name: "Partner sandbox (Initech)" })).toBeVisible();

  // Members see the settings but cannot change them.
  await page.goto("/acme/settings/alerts");
  await expect(page.getByRole("heading", { name: "Alerts", exact: true })).toBeVisible();
  await expect(page.getByLabel("Quota thresholds (%)")).toBeDisabled();
  await expect(page.getByText("Only owners and admins can change the alert settings.")).toBeVisible();
  await context.close();
});

test("the trial owner's banner turns amber past 80 % and the bell says so, at phone width", async ({ browser }) => {
  const context = await browser.newContext({ storageState: storageStateOf("trialOwner"), viewport: PHONE });
  const page = await context.newPage();
  await page.goto("/globex/settings/api");
  await expect(page.getByText(/^\d+ % used$/)).toBeVisible();
  await page.getByRole("button", { name: /^Alerts/ }).click();
  // The demo trial's calls grow through the month, so by some hours the 90 % alert is there too: follow the 80 % one's link.
  const eightyPercent = page.getByRole("dialog").getByRole("listitem").filter({ hasText: "80 % of the monthly API quota used" });
  await expect(eightyPercent).toBeVisible();
  await screenshot(page, "alerts-bell-phone");
  await eightyPercent.getByRole("link", { name: "Review the plan" }).click();
  await expect(page).toHaveURL(/\/globex\/settings\/plan$/);
  await context.close();
});

test("an admin changes when to alert; bad thresholds are refused on the field", async ({ browser }) => {
  const context = await browser.newContext({ storageState: storageStateOf("admin") });
  const page = await context.newPage();
  await page.goto("/acme/settings/alerts");
  const thresholds = page.getByLabel("Quota thresholds (%)");
  const save = page.getByRole("button", { name: "Save alert settings" });
  await expect(save).toBeDisabled();

  await thresholds.fill("75, 75");
  await save.click();
  await expect(page.getByText("Name each percentage once.")).toBeVisible();
  await screenshot(page, "alerts-settings-refused");

  await thresholds.fill("75, 90, 100");
  await save.click();
  await expect(page.getByText("Alert settings saved")).toBeVisible();
  await expect(page.getByText("Quota alerts at 75 %, 90 %, 100 %.")).toBeVisible();
  await page.reload();
  await expect(thresholds).toHaveValue("75, 90, 100");
  await screenshot(page, "alerts-settings");

  // The change is in the activity history; then the defaults again for the other specs.
  await page.goto("/acme/settings/api/activity");
  await expect(page.getByRole("list", { name: "Changes" }).getByText("Alert settings changed").first()).toBeVisible();
  await page.goto("/acme/settings/alerts");
  await thresholds.fill("80, 90, 100");
  await save.click();
  await expect(page.getByText("Quota alerts at 80 %, 90 %, 100 %.")).toBeVisible();
  await context.close();
});

test("a guest has no bell and no Alerts page", async ({ browser }) => {
  const context = await browser.newContext({ storageState: storageStateOf("guest") });
  const page = await context.newPage();
  await page.goto("/acme/settings/api");
  await expect(page.getByRole("heading", { name: "API keys" })).toBeVisible();
  await expect(page.getByRole("button", { name: /^Alerts/ })).toHaveCount(0);
  // The page streams behind its loading skeleton, so the refusal is the not-found page, not the status.
  await page.goto("/acme/settings/alerts");
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
  await expect(page.getByLabel("Quota thresholds (%)")).toHaveCount(0);
  await context.close();
});
