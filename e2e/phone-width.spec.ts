import { expect, PHONE, screenshot, storageStateOf, test } from "./fixtures";
import { ApiKeysPage } from "./pages/api-keys-page";
import { DashboardShell } from "./pages/dashboard-shell";

// Every page works at phone width. Every signed-in page of app/[orgSlug], with the
// settings tab it belongs to and a heading it shows once rendered.
const SIGNED_IN_PAGES = [
  { path: "/acme/settings/api", tab: "API keys", heading: "API keys" },
  { path: "/acme/settings/api/keys/key_demo_acme_prod", tab: "API keys", heading: "Production billing server" },
  { path: "/acme/settings/api/policy", tab: "Key policy", heading: "Key policy" },
  { path: "/acme/settings/api/usage", tab: "Usage", heading: "Usage" },
  { path: "/acme/settings/api/audit", tab: "Audit log", heading: "Audit log" },
  { path: "/acme/settings/api/activity", tab: "Activity", heading: "Activity" },
  { path: "/acme/settings/members", tab: "Members", heading: "Members" },
  { path: "/acme/settings/plan", tab: "Plan", heading: "Plan" },
  { path: "/acme/settings/alerts", tab: "Alerts", heading: "Alerts" },
  { path: "/acme/settings/notifications", tab: "Email", heading: "Email notifications" },
  { path: "/acme/settings/webhooks", tab: "Webhooks", heading: "Webhooks" },
  { path: "/acme/settings/webhooks/whe_demo_acme_books", tab: "Webhooks", heading: "https://hooks.acme-books.example/invoicing/events" },
  { path: "/settings/security", tab: "Security", heading: "Security" },
];

test.describe("at phone width (390 px)", () => {
  test.use({ storageState: storageStateOf("owner"), viewport: PHONE });

  for (const { path, tab, heading } of SIGNED_IN_PAGES) {
    test(`${path} does not scroll sideways and shows its settings tab "${tab}"`, async ({ page }) => {
      const shell = new DashboardShell(page);
      await page.goto(path, { waitUntil: "networkidle" });
      await expect(page.getByRole("heading", { name: heading, exact: true })).toBeVisible();
      await expect(shell.currentTab).toHaveText(tab);
      await expect.poll(() => shell.currentTabInView(), { message: `the "${tab}" tab is scrolled into the nav's view` }).toBe(true);
      expect(await shell.horizontalOverflow(), "pixels the page is wider than the window").toBeLessThanOrEqual(0);
      await screenshot(page, `phone${path.replaceAll("/", "-")}`);
    });
  }

  test("a request's details page does not scroll sideways", async ({ page }) => {
    const shell = new DashboardShell(page);
    await page.goto("/acme/settings/api/audit?status=4xx", { waitUntil: "networkidle" });
    await page
      .getByRole("table", { name: "API requests" })
      .getByRole("link", { name: /^\/v1\// })
      .first()
      .click();
    await expect(page).toHaveURL(/\/acme\/settings\/api\/audit\/req_/);
    await expect(page.getByLabel("Response body", { exact: true })).toBeVisible();
    await expect(shell.currentTab).toHaveText("Audit log");
    expect(await shell.horizontalOverflow(), "pixels the page is wider than the window").toBeLessThanOrEqual(0);
    await screenshot(page, "phone-request-details");
  });

  test("the first-call example is never hidden under its copy button", async ({ page }) => {
    await new ApiKeysPage(page).goto();
    const code = page.getByLabel("curl example", { exact: true });
    const codeBox = (await code.boundingBox())!;
    const copyBox = (await page.getByRole("button", { name: "Copy curl example" }).boundingBox())!;
    const overlapping =
      codeBox.x < copyBox.x + copyBox.width &&
      copyBox.x < codeBox.x + codeBox.width &&
      codeBox.y < copyBox.y + copyBox.height &&
      copyBox.y < codeBox.y + codeBox.height;
    expect(overlapping, "the copy button lies over the code").toBe(false);
    await screenshot(page, "phone-first-call");
  });

  test("the create dialog's permission choices line up in columns: None, then each permission by rank", async ({ page }) => {
    const keys = new ApiKeysPage(page);
    await keys.goto();
    const dialog = await keys.openCreateDialog();
    await dialog.getByRole("radio", { name: /^Restricted/ }).check();
    const permissions = dialog.getByRole("group", { name: "Permissions per resource" });
    const resources = await permissions.getByRole("radiogroup").all();
    // The left edges of the n-th choice of every resource: one edge per column.
    const columns: Set<number>[] = [];
    for (const resource of resources) {
      const choices = await resource.getByRole("radio").all();
      for (const [n, choice] of choices.entries()) (columns[n] ??= new Set()).add(Math.round((await choice.boundingBox())!.x));
    }
    expect(columns.map((edges) => [...edges])).toEqual(columns.map((edges) => [[...edges][0]]));
    expect(await dialog.evaluate((element) => element.scrollWidth - element.clientWidth), "pixels the dialog is wider than its box").toBeLessThanOrEqual(0);
    await permissions.scrollIntoViewIfNeeded();
    await screenshot(page, "phone-create-key-restricted");
  });
});
