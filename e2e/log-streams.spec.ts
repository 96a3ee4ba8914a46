import { DatadogIntake, startReceiver } from "../tests/helpers/log-receivers";
import { expect, PHONE, screenshot, storageStateOf, test } from "./fixtures";
import { chooseOption } from "./native-select";

const API_KEY = "e2e0e2e0e2e0e2e0e2e0e2e0e2e0abcd";

test("an admin adds a Datadog stream, sends a test event, sees it delivered, and the stream carries the activity", async ({ browser }) => {
  const intake = await startReceiver(new DatadogIntake(API_KEY));
  const context = await browser.newContext({ storageState: storageStateOf("admin") });
  const page = await context.newPage();
  try {
    await page.goto("/acme/settings/log-streams");
    await expect(page.getByRole("heading", { name: "Log streams", exact: true })).toBeVisible();
    await expect(page.getByText("No log streams yet")).toBeVisible();
    await screenshot(page, "log-streams-empty");

    await page.getByRole("button", { name: "Add stream" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("Name").fill("E2E Datadog");
    await chooseOption(dialog.getByLabel("Site"), "datadoghq.eu");
    await dialog.getByLabel("API key").fill(API_KEY);
    await dialog.getByLabel("Intake URL (optional)").fill(`${intake.url}/api/v2/logs`);
    await dialog.getByRole("checkbox", { name: /^Requests/ }).uncheck();
    await screenshot(page, "log-streams-add");
    await dialog.getByRole("button", { name: "Add stream" }).click();
    await expect(page.getByText("Log stream added")).toBeVisible();
    await expect(dialog).toBeHidden();

    const stream = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: "E2E Datadog" }) });
    await expect(stream.getByText("API key …abcd")).toBeVisible();
    await expect(stream.getByText("Activity history, Alerts")).toBeVisible();
    await stream.getByRole("button", { name: "Send test event to E2E Datadog" }).click();
    await expect(page.getByText("Test event delivered")).toBeVisible();
    const entries = () => intake.events as { type: string; data: { action?: string; stream_id?: string } }[];
    expect(entries().filter((entry) => entry.type === "test")).toHaveLength(1);

    // The stream itself carries the activity history: its own creation and the test event's entry arrive within seconds.
    await expect
      .poll(
        () =>
          entries()
            .filter((entry) => entry.type === "activity")
            .map((entry) => entry.data.action),
        { timeout: 20_000 },
      )
      .toEqual(expect.arrayContaining(["log_stream.created", "log_stream.test_sent"]));
    await expect(async () => {
      await page.reload();
      await expect(stream.getByText("Nothing delivered yet")).toHaveCount(0);
      await expect(stream.getByText("Up to date")).toBeVisible();
    }).toPass({ timeout: 15_000 });
    await expect(stream.getByText("Delivering")).toBeVisible();
    await screenshot(page, "log-streams");
    await page.setViewportSize(PHONE);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await screenshot(page, "log-streams-phone");
    await page.setViewportSize({ width: 1280, height: 900 });
    expect(intake.problems).toEqual([]);

    // Deleting it leaves Acme as it was for the other specs.
    await stream.getByRole("button", { name: "Delete E2E Datadog" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Delete stream" }).click();
    await expect(page.getByText("No log streams yet")).toBeVisible();
  } finally {
    await context.close();
    await intake.stop();
  }
});

test("a member sees no log stream settings", async ({ browser }) => {
  const context = await browser.newContext({ storageState: storageStateOf("member") });
  const page = await context.newPage();
  await page.goto("/acme/settings/alerts");
  const nav = page.getByRole("navigation", { name: "Settings" });
  await expect(nav.getByRole("link", { name: "Alerts" })).toBeVisible();
  await expect(nav.getByRole("link", { name: "Log streams" })).toHaveCount(0);
  await page.goto("/acme/settings/log-streams");
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
  await context.close();
});
