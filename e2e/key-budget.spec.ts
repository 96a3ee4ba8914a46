import { expect, PHONE, POSTGRES, screenshot, storageStateOf, test } from "./fixtures";
import { ApiKeysPage } from "./pages/api-keys-page";

test(
  "an admin gives a key a budget of 3 a day: the 4th call is refused with key_budget_exceeded and the key's page shows 3 of 3",
  POSTGRES,
  async ({ browser, request }) => {
    const admin = await browser.newContext({ storageState: storageStateOf("admin") });
    const owner = await browser.newContext({ storageState: storageStateOf("owner") });
    const page = await admin.newPage();
    const ownerPage = await owner.newPage();
    await new ApiKeysPage(ownerPage).revokeLeftovers(/Nightly export \d+/);
    const keys = new ApiKeysPage(page);
    const name = `Nightly export ${Date.now()}`;

    await keys.goto();
    const form = await keys.openCreateDialog();
    await form.getByLabel("Name").fill(name);
    // Bad input is refused on its field, and nothing is created.
    const requests = form.getByRole("textbox", { name: "Requests (optional)" });
    await requests.fill("three");
    await form.getByRole("button", { name: "Create key" }).click();
    await expect(form.getByRole("alert")).toContainText("Enter a whole number of requests from 1 to 1,000,000,000");
    await requests.fill("3");
    await form.getByRole("combobox", { name: "Counted" }).click();
    await page.getByRole("option", { name: "Per day" }).click();
    await screenshot(page, "create-key-budget");
    const value = await keys.keepValue(await keys.create(name, form));

    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const response = await request.get("/v1/invoices", { headers: { "X-API-Key": value } });
      statuses.push(response.status());
      if (i === 3) {
        expect(((await response.json()) as { error: { code: string } }).error.code).toBe("key_budget_exceeded");
        expect(response.headers()["x-key-budget-remaining"]).toBe("0");
        expect(Number(response.headers()["retry-after"])).toBeGreaterThan(0);
      }
    }
    expect(statuses).toEqual([200, 200, 200, 429]);

    await keys.goto();
    await expect(keys.row(name).getByText("3 / 3 today", { exact: true })).toBeVisible();
    await screenshot(page, "api-keys-budget-badge");
    const href = await keys.row(name).getByRole("link", { name, exact: true }).getAttribute("href");
    await keys.openKey(name, href!.split("/").pop()!);
    const budget = page.getByRole("region", { name: "Budget" });
    await expect(budget).toContainText("Budget: 3 requests per day");
    await expect(budget).toContainText("3 of 3 used today");
    await expect(budget.getByRole("progressbar", { name: "3 of 3 requests of the budget used today" })).toBeVisible();
    await expect(budget.getByText("Used up")).toBeVisible();
    await screenshot(page, "key-page-budget");
    await page.setViewportSize(PHONE);
    await screenshot(page, "key-page-budget-phone");
    await page.setViewportSize({ width: 1280, height: 860 });

    // Raised within the day, it lets the difference through at once; the history records both.
    await budget.getByRole("button", { name: "Edit budget" }).click();
    const edit = page.getByRole("dialog", { name: "Edit access" });
    await edit.getByRole("textbox", { name: "Requests (optional)" }).fill("4");
    await edit.getByRole("button", { name: "Save access" }).click();
    await expect(page.getByText(`Access of “${name}” saved`)).toBeVisible();
    expect((await request.get("/v1/invoices", { headers: { "X-API-Key": value } })).status()).toBe(200);
    await page.reload();
    await expect(page.getByRole("listitem", { name: `Key budget changed: ${name}` })).toContainText("3 requests per day");
    await expect(page.getByRole("listitem", { name: `Key budget changed: ${name}` })).toContainText("4 requests per day");

    await new ApiKeysPage(ownerPage).revokeLeftovers(/Nightly export \d+/);
    await admin.close();
    await owner.close();
  },
);

test("a member turns on email for key budget alerts on the Email page", async ({ browser }) => {
  const member = await browser.newContext({ storageState: storageStateOf("member") });
  const page = await member.newPage();
  await page.goto("/acme/settings/api");
  await page.getByRole("navigation", { name: "Settings" }).getByRole("link", { name: "Email" }).click();
  await expect(page.getByRole("heading", { name: "Email notifications" })).toBeVisible();
  const budgets = page.getByRole("switch", { name: /^Key budgets/ });
  // Alerts are off by email until chosen; expiry reminders are on.
  await expect(budgets).not.toBeChecked();
  await expect(page.getByRole("switch", { name: /^Expiry reminders/ })).toBeChecked();
  await budgets.click();
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Email notifications saved")).toBeVisible();
  await page.reload();
  await expect(page.getByRole("switch", { name: /^Key budgets/ })).toBeChecked();
  await screenshot(page, "email-notifications");
  await page.setViewportSize(PHONE);
  await screenshot(page, "email-notifications-phone");
  // Back as it was, for the other specs.
  await page.setViewportSize({ width: 1280, height: 860 });
  await page.getByRole("switch", { name: /^Key budgets/ }).click();
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Email notifications saved")).toBeVisible();
  await member.close();
});

test("an unsubscribe link opens without signing in, and a forged one says it is not valid", async ({ browser }) => {
  const visitor = await browser.newContext();
  const page = await visitor.newPage();
  await page.goto("/unsubscribe?token=eyJvcmciOiJ4In0.forged");
  await expect(page).toHaveURL(/\/unsubscribe\?token=/);
  await expect(page.getByText("This unsubscribe link is not valid")).toBeVisible();
  await screenshot(page, "unsubscribe-invalid");
  await visitor.close();
});
