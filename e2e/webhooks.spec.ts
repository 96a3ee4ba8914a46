import { Webhook } from "standardwebhooks";
import { expect, PHONE, POSTGRES, screenshot, storageStateOf, test } from "./fixtures";
import { startReceiver } from "./receiver";

test("an admin adds an endpoint, sends a test event, sees it delivered and resends it", POSTGRES, async ({ browser }) => {
  const receiver = await startReceiver();
  const context = await browser.newContext({ storageState: storageStateOf("admin") });
  const page = await context.newPage();
  try {
    await page.goto("/acme/settings/webhooks");
    await expect(page.getByRole("heading", { name: "Webhooks", exact: true })).toBeVisible();
    await page.getByRole("button", { name: "Add endpoint" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("Endpoint URL").fill(receiver.url);
    await dialog.getByLabel("Description (optional)").fill("E2E receiver");
    await dialog.getByRole("checkbox", { name: /usage\.rate_limited/ }).uncheck();
    await screenshot(page, "webhooks-add");
    await dialog.getByRole("button", { name: "Add endpoint" }).click();
    const secretField = dialog.getByLabel("Signing secret");
    await expect(secretField).toHaveValue(/^whsec_/);
    const secret = await secretField.inputValue();
    await screenshot(page, "webhooks-secret");
    await dialog.getByRole("button", { name: "Done" }).click();

    await page.getByRole("link", { name: `Deliveries of ${receiver.url}` }).click();
    await expect(page.getByText("No deliveries yet. Send a test event to see one here.")).toBeVisible();
    await page.getByRole("button", { name: "Send test event" }).click();
    const row = page.getByRole("row").filter({ hasText: "webhook.test" });
    // The log refreshes itself while the delivery is under way.
    await expect(row.getByText("Delivered")).toBeVisible({ timeout: 15_000 });
    await expect(row.getByRole("cell", { name: "200", exact: true })).toBeVisible();
    // Other specs' keys may raise events for this endpoint meanwhile (a key expiring within 7 days):
    // the test event is told apart by its type.
    const testEvents = () => receiver.received.filter((request) => (JSON.parse(request.body) as { type: string }).type === "webhook.test");
    expect(testEvents()).toHaveLength(1);
    const first = testEvents()[0]!;
    expect(new Webhook(secret).verify(first.body, first.headers)).toMatchObject({ type: "webhook.test" });
    await screenshot(page, "webhooks-deliveries");

    await row.getByRole("button", { name: /^Resend webhook\.test/ }).click();
    await expect(page.getByText("Delivery queued again")).toBeVisible();
    await expect.poll(() => testEvents().length, { timeout: 15_000 }).toBe(2);
    expect(testEvents()[1]!.headers["webhook-id"]).toBe(first.headers["webhook-id"]);
    await expect(row.getByRole("cell", { name: "2", exact: true })).toBeVisible({ timeout: 15_000 });

    // Opening the row shows each attempt with its own answer, the first one included.
    await row.getByText("webhook.test", { exact: true }).click();
    const attempts = row.getByRole("region", { name: "Attempts" }).getByRole("listitem");
    await expect(attempts).toHaveCount(2);
    for (const [index, attempt] of (await attempts.all()).entries()) {
      await expect(attempt).toContainText(`Attempt ${index + 1}`);
      await expect(attempt).toContainText("200");
      await expect(attempt).toContainText("received");
    }

    await page.setViewportSize(PHONE);
    // Readable at a phone's width: the opened row fits the log's visible part, nothing to scroll sideways for.
    const lastAttempt = attempts.last();
    await lastAttempt.scrollIntoViewIfNeeded();
    const box = (await lastAttempt.boundingBox())!;
    const visible = (await page.locator("[data-slot=table-container]").boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(visible.x);
    expect(box.x + box.width).toBeLessThanOrEqual(Math.min(visible.x + visible.width, PHONE.width));
    await screenshot(page, "webhooks-deliveries-phone");
    await page.setViewportSize({ width: 1280, height: 900 });

    // Deleting it leaves Acme as it was for the other specs.
    await page.getByRole("button", { name: "Delete" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Delete endpoint" }).click();
    await expect(page).toHaveURL(/\/acme\/settings\/webhooks$/);
    await expect(page.getByRole("link", { name: `Deliveries of ${receiver.url}` })).toHaveCount(0);
  } finally {
    await context.close();
    await receiver.stop();
  }
});

test("a member sees alerts but has no Webhooks page", async ({ browser }) => {
  const context = await browser.newContext({ storageState: storageStateOf("member") });
  const page = await context.newPage();
  await page.goto("/acme/settings/alerts");
  await expect(page.getByRole("navigation", { name: "Settings" }).getByRole("link", { name: "Alerts" })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Settings" }).getByRole("link", { name: "Webhooks" })).toHaveCount(0);
  await page.goto("/acme/settings/webhooks");
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
  await context.close();
});
