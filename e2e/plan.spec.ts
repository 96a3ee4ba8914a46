import { expect, PHONE, screenshot, storageStateOf, test } from "./fixtures";
import { SignUpPage } from "./pages/sign-up-page";

test.describe("an owner", () => {
  test("switches plans after confirming, sets the Enterprise rate limit, and loses API access on Solo", async ({ page }) => {
    // A fresh organization of its own, so the demo organizations keep their plans.
    const stamp = Date.now();
    await new SignUpPage(page).goto();
    await new SignUpPage(page).signUp({
      name: "Paula Planner",
      email: `planner-${stamp}@example.test`,
      password: "a-long-enough-password",
      organization: `Planner ${stamp}`,
    });
    await expect(page.getByRole("heading", { name: "API keys", exact: true })).toBeVisible();
    await page.getByRole("navigation", { name: "Settings" }).getByRole("link", { name: "Plan" }).click();
    await expect(page.getByRole("heading", { name: "Plan", exact: true })).toBeVisible();
    await expect(page.locator("[aria-current=true]")).toContainText("Trial");

    await page.getByRole("button", { name: "Switch to Enterprise" }).click();
    const confirm = page.getByRole("alertdialog", { name: "Switch to Enterprise?" });
    await expect(confirm).toContainText("Unlimited active API keys");
    await confirm.getByRole("button", { name: "Switch to Enterprise" }).click();
    await expect(page.getByText("Switched to Enterprise")).toBeVisible();
    await expect(page.locator("[aria-current=true]")).toContainText("Enterprise");
    await expect(page.getByText(/Plan last changed .+ by Paula Planner/)).toBeVisible();

    const limit = page.getByLabel("Requests per minute per key");
    await limit.fill("0");
    await page.getByRole("button", { name: "Save rate limit" }).click();
    await expect(page.getByText(/between 1 and 100,000|at least 1/i)).toBeVisible();
    await limit.fill("500");
    await page.getByRole("button", { name: "Save rate limit" }).click();
    await expect(page.getByText("Rate limit set to 500 requests per minute per key")).toBeVisible();
    await expect(page.getByText(/Now: 500/)).toBeVisible();
    await screenshot(page, "plan-enterprise");

    await page.getByRole("button", { name: "Switch to Solo" }).click();
    const toSolo = page.getByRole("alertdialog", { name: "Switch to Solo?" });
    await expect(toSolo).toContainText("403 plan_no_api_access");
    await screenshot(page, "plan-switch-confirmation");
    await toSolo.getByRole("button", { name: "Switch to Solo" }).click();
    await expect(page.locator("[aria-current=true]")).toContainText("Solo");

    await page.getByRole("navigation", { name: "Settings" }).getByRole("link", { name: "API keys" }).click();
    await expect(page.getByText("Your plan has no API access", { exact: true })).toBeVisible();
    await expect(page.getByRole("button", { name: "Create API key" })).toHaveCount(0);
  });

  test("cancels a switch and nothing changes", async ({ browser }) => {
    const context = await browser.newContext({ storageState: storageStateOf("owner") });
    const page = await context.newPage();
    await page.goto("/acme/settings/plan");
    await page.getByRole("button", { name: "Switch to Trial" }).click();
    const confirm = page.getByRole("alertdialog", { name: "Switch to Trial?" });
    await expect(confirm).toContainText("no new live key can be created");
    await confirm.getByRole("button", { name: "Cancel" }).click();
    await expect(confirm).toBeHidden();
    await page.reload();
    await expect(page.locator("[aria-current=true]")).toContainText("Pro");
    await context.close();
  });
});

for (const role of ["admin", "member", "guest"] as const) {
  test.describe(`as ${role === "admin" ? "an" : "a"} ${role}`, () => {
    test.use({ storageState: storageStateOf(role) });

    test("sees the plans and this month's usage, read-only", async ({ page }) => {
      await page.goto("/acme/settings/plan");
      await expect(page.locator("[aria-current=true]")).toContainText("Pro");
      await expect(page.locator("[aria-current=true]")).toContainText(/This month: [\d,]+ calls/);
      await expect(page.getByText("Only owners can change the plan.", { exact: false })).toBeVisible();
      await expect(page.getByRole("button", { name: /^Switch to/ })).toHaveCount(0);
      if (role === "member") {
        await screenshot(page, "plan-read-only");
        await page.setViewportSize(PHONE);
        await screenshot(page, "plan-phone");
      }
    });
  });
}
