import fs from "node:fs/promises";
import { parse as parseCsv } from "csv-parse/sync";
import { expect, PHONE, POSTGRES, screenshot, storageStateOf, test } from "./fixtures";
import { ApiKeysPage } from "./pages/api-keys-page";
import { chooseOption } from "./native-select";

test.describe("as a member", () => {
  test.use({ storageState: storageStateOf("member") });

  test("reads the Activity page and filters it by action, in the URL", POSTGRES, async ({ page }) => {
    await page.goto("/acme/settings/api");
    await page.getByRole("link", { name: "Activity" }).click();
    await expect(page.getByRole("heading", { name: "Activity", level: 1 })).toBeVisible();
    const changes = page.getByRole("list", { name: "Changes" });
    await expect(changes.getByRole("listitem").first()).toBeVisible();
    await expect(changes.getByRole("listitem", { name: "Key created: Production billing server" })).toBeVisible();
    await screenshot(page, "activity");

    await chooseOption(page.getByRole("combobox", { name: "Action" }), "Key revoked");
    await expect(page).toHaveURL(/[?&]action=api_key\.revoked/);
    const revoked = changes.getByRole("listitem", { name: "Key revoked: Legacy CSV importer" });
    await expect(revoked).toBeVisible();
    await expect(revoked).toContainText("Olivia Owens");
    await expect(revoked).toContainText(/active\s*→\s*revoked/);
    for (const name of await changes.getByRole("listitem").evaluateAll((items) => items.map((item) => item.getAttribute("aria-label")))) {
      expect(name).toMatch(/^Key revoked: /);
    }

    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Export CSV" }).click()]);
    expect(download.suggestedFilename()).toMatch(/^activity-acme-\d{4}-\d\d-\d\d\.csv$/);
    const records = parseCsv(await fs.readFile((await download.path())!, "utf8"), { columns: true }) as Record<string, string>[];
    expect(records.length).toBeGreaterThan(0);
    expect(records.every((record) => record.action === "api_key.revoked")).toBe(true);

    await page.setViewportSize(PHONE);
    await screenshot(page, "activity-phone");
  });

  test("opens a revoked key's history from a refused request in the audit log", async ({ page }) => {
    await page.goto("/acme/settings/api/audit?key=key_demo_acme_legacy&status=4xx&range=30d");
    const refused = page.getByRole("link", { name: "Refused: key revoked" }).first();
    await expect(refused).toBeVisible();
    await screenshot(page, "audit-log-refused-key");
    await refused.click();

    await expect(page).toHaveURL(/\/acme\/settings\/api\/activity\?.*key=key_demo_acme_legacy/);
    await expect(page).toHaveURL(/[?&]action=api_key\.revoked/);
    const entry = page.getByRole("list", { name: "Changes" }).getByRole("listitem", { name: "Key revoked: Legacy CSV importer" });
    await expect(entry).toBeVisible();

    // …and from the entry to the key's page, where its own history lists it.
    await entry.getByRole("link", { name: "Legacy CSV importer" }).click();
    await expect(page.getByRole("heading", { name: "Legacy CSV importer" })).toBeVisible();
    const history = page.getByRole("list", { name: "History of this key" });
    await expect(history.getByRole("listitem", { name: "Key revoked: Legacy CSV importer" })).toBeVisible();
    await expect(history.getByRole("listitem", { name: "Key created: Legacy CSV importer" })).toBeVisible();
    await screenshot(page, "key-history");
  });
});

test.describe("as a guest", () => {
  test.use({ storageState: storageStateOf("guest") });

  test("has no Activity page and cannot export it", async ({ page }) => {
    await page.goto("/acme/settings/api");
    await expect(page.getByRole("navigation", { name: "Settings" }).getByRole("link", { name: "Activity" })).toHaveCount(0);
    expect((await page.goto("/acme/settings/api/activity"))?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
    await expect(page.getByRole("list", { name: "Changes" })).toHaveCount(0);
    const response = await page.request.get("/acme/settings/api/activity/export");
    expect(response.status()).toBe(403);
    await page.goto("/acme/settings/api/keys/key_demo_acme_legacy");
    await expect(page.getByRole("heading", { name: "Legacy CSV importer" })).toBeVisible();
    await expect(page.getByRole("list", { name: "History of this key" })).toHaveCount(0);
  });
});

test.describe("as the owner", () => {
  test.use({ storageState: storageStateOf("owner") });

  test("describes a full-access key's permissions as Full access and a read-only key's as Read only", async ({ page }) => {
    await page.goto("/acme/settings/api/activity?action=api_key.created");
    const changes = page.getByRole("list", { name: "Changes" });
    await expect(changes.getByRole("listitem", { name: "Key created: Production billing server" })).toContainText(/Permissions:\s*Full access/);
    await expect(changes.getByRole("listitem", { name: "Key created: Partner sandbox (Initech)" })).toContainText(/Permissions:\s*Read only/);
    await expect(changes).not.toContainText(/Permissions:\s*None/);
  });

  test("keeps a revoke note's line breaks and shows its reason before it", async ({ page }) => {
    const keys = new ApiKeysPage(page);
    const name = `Retired relay ${Date.now()}`;
    await keys.goto();
    await keys.createAndDismiss(name);
    await keys.revoke(name, "No longer used", "Moved to the new relay.\nOld host shut down on Friday.");

    await page.goto("/acme/settings/api/activity?action=api_key.revoked");
    const entry = page.getByRole("list", { name: "Changes" }).getByRole("listitem", { name: `Key revoked: ${name}` });
    await expect(entry).toBeVisible();
    expect(await entry.locator("dt").allInnerTexts()).toEqual(["Status:", "Reason:", "Note:"]);
    expect(await entry.locator("dt:has-text('Note:') + dd").innerText()).toBe("Moved to the new relay.\nOld host shut down on Friday.");
    await screenshot(page, "activity-revoke-note");
  });
});
