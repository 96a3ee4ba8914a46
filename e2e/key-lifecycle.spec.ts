import { expect, PHONE, screenshot, storageStateOf, test } from "./fixtures";
import { ApiKeysPage } from "./pages/api-keys-page";

const KEY_FORMAT = /^ik_[0-9A-Za-z]{32}$/;
const HOUR = 60 * 60 * 1000;

test("an owner rolls a key with a 1-hour overlap: both values work, the old one shows its end", async ({ browser, request }) => {
  const context = await browser.newContext({ storageState: storageStateOf("owner"), permissions: ["clipboard-read", "clipboard-write"] });
  const page = await context.newPage();
  const keys = new ApiKeysPage(page);
  await keys.revokeLeftovers(/Webhook relay \d+/);
  const name = `Webhook relay ${Date.now()}`;
  const created = await keys.create(name);
  const oldValue = await created.getByLabel("API key").inputValue();
  await created.getByRole("checkbox", { name: "I have copied this key" }).check();
  await created.getByRole("button", { name: "Done" }).click();
  await expect(created).toBeHidden();

  const oldHref = await keys.row(name).getByRole("link", { name, exact: true }).getAttribute("href");
  const oldKeyId = oldHref!.split("/").pop()!;
  await keys.openKey(name, oldKeyId);
  await expect(page.getByRole("heading", { name })).toBeVisible();

  await page.getByRole("button", { name: `Roll ${name}` }).click();
  const form = page.getByRole("dialog", { name: "Roll API key" });
  await expect(form).toContainText("Never used");
  await form.getByRole("combobox", { name: "The old value keeps working" }).click();
  await page.getByRole("option", { name: "For 1 hour" }).click();
  await screenshot(page, "roll-key-dialog");
  const rolledAt = Date.now();
  await form.getByRole("button", { name: "Roll key" }).click();

  const shown = page.getByRole("dialog", { name: "Save your API key" });
  const field = shown.getByLabel("API key");
  await expect(field).toHaveValue(KEY_FORMAT);
  const newValue = await field.inputValue();
  expect(newValue).not.toBe(oldValue);
  await expect(shown).toContainText(/The old one \(ik_\w{4}…\w{4}\) works until \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/);
  await shown.getByRole("button", { name: "Copy" }).click();
  await expect(shown.getByRole("button", { name: "Copied" })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(newValue);
  await screenshot(page, "roll-key-shown");
  await shown.getByRole("checkbox", { name: "I have copied this key" }).check();
  await shown.getByRole("button", { name: "Done" }).click();
  await expect(shown).toBeHidden();

  // Both values work during the overlap; the old one says when it ends.
  const fresh = await request.get("/v1/invoices", { headers: { "X-API-Key": newValue } });
  expect(fresh.status()).toBe(200);
  const old = await request.get("/v1/invoices", { headers: { "X-API-Key": oldValue } });
  expect(old.status()).toBe(200);
  const oldEnd = Date.parse(old.headers()["x-api-key-expires"]!);
  expect(oldEnd - rolledAt).toBeGreaterThan(HOUR - 60_000);
  expect(oldEnd - Date.now()).toBeLessThanOrEqual(HOUR);

  // The old key's page: its end time, and its use since the roll (the call above).
  await page.reload();
  const notice = page.getByRole("status", { name: "Rolled key" });
  await expect(notice).toContainText(/stops working in (\d+ minutes|1 hour)/);
  await expect(notice).toContainText(new Date(oldEnd).toISOString().slice(0, 16).replace("T", " ") + " UTC");
  await expect(notice).toContainText(/Still used (.+ ago|just now) from .+: your clients have not all switched yet/);
  await expect(page.getByRole("button", { name: `Roll ${name}` })).toHaveCount(0);
  await screenshot(page, "rolled-key");
  await page.setViewportSize(PHONE);
  await screenshot(page, "rolled-key-phone");
  await page.setViewportSize({ width: 1280, height: 800 });

  // The keys are linked both ways.
  await notice.getByRole("link", { name: "Open the new key" }).click();
  await expect(page).not.toHaveURL(new RegExp(`/keys/${oldKeyId}$`));
  await expect(page.getByRole("heading", { name })).toBeVisible();
  await expect(page.getByText("Replaces", { exact: true })).toBeVisible();
  await expect(page.getByRole("link", { name: `${oldValue.slice(0, 7)}…${oldValue.slice(-4)}` })).toBeVisible();
  await keys.revokeLeftovers(/Webhook relay \d+/);
  await context.close();
});

test.describe("as an admin", () => {
  test.use({ storageState: storageStateOf("admin") });

  test("can rename a key but not roll it", async ({ page }) => {
    await page.goto("/acme/settings/api/keys/key_demo_acme_staging");
    const heading = page.getByRole("heading", { level: 1 });
    await expect(heading).toBeVisible();
    const name = (await heading.innerText()).trim();
    await expect(page.getByRole("button", { name: `Rename ${name}` })).toBeVisible();
    await expect(page.getByRole("button", { name: /^Roll/ })).toHaveCount(0);
  });
});
