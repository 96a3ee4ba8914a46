import { expect, PHONE, POSTGRES, screenshot, storageStateOf, test } from "./fixtures";
import { startReceiver } from "./receiver";

test("an admin adds a Slack channel on the Alerts page and sends it a test message; its URL is shown only by its end", POSTGRES, async ({ browser }) => {
  const slack = await startReceiver();
  const context = await browser.newContext({ storageState: storageStateOf("admin") });
  const page = await context.newPage();
  const url = `${slack.url}/T0E2E/B0E2E/e2eSecretToken${Date.now() % 10_000}`;
  try {
    await page.goto("/acme/settings/alerts");
    const card = page.getByText("Every alert is also posted to these channels").locator("xpath=ancestor::div[@data-slot='card']");
    // A bad URL is refused on its field.
    await card.getByLabel("Incoming-webhook URL").fill("not a url");
    await card.getByRole("button", { name: "Add channel" }).click();
    await expect(card.getByRole("alert")).toContainText("Enter a full URL");
    await card.getByLabel("Incoming-webhook URL").fill(url);
    await card.getByLabel("Channel (optional)").fill("#e2e-alerts");
    await card.getByRole("button", { name: "Add channel" }).click();
    await expect(page.getByText("Slack channel added")).toBeVisible();
    const channel = page.getByRole("list", { name: "Slack channels" }).getByRole("link").filter({ hasText: "#e2e-alerts" });
    await expect(channel).toContainText(`…${url.slice(-4)}`);
    await expect(page.getByText("e2eSecretToken")).toHaveCount(0);
    await screenshot(page, "alerts-slack");
    await page.setViewportSize(PHONE);
    await screenshot(page, "alerts-slack-phone");
    await page.setViewportSize({ width: 1280, height: 860 });

    await channel.click();
    await page.getByRole("button", { name: "Send test message" }).click();
    const row = page.getByRole("row").filter({ hasText: "webhook.test" });
    await expect(row.getByText("Delivered")).toBeVisible({ timeout: 15_000 });
    const message = JSON.parse(slack.received.at(-1)!.body) as { text: string };
    expect(message.text).toBe("Test message from Invoicing: this channel gets the alerts of Acme Inc.");
    await screenshot(page, "slack-channel-deliveries");

    await page.getByRole("button", { name: "Delete" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Delete Slack channel" }).click();
    await expect(page).toHaveURL(/\/acme\/settings\/alerts$/);
    await expect(page.getByRole("list", { name: "Slack channels" })).toHaveCount(0);
  } finally {
    await context.close();
    await slack.stop();
  }
});
