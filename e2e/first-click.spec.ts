import { spawn, type ChildProcess } from "node:child_process";
import { availableParallelism } from "node:os";
import type { Page } from "@playwright/test";
import { answerSudoModeWith, expect, storageStateOf, test } from "./fixtures";
import { ApiKeysPage } from "./pages/api-keys-page";
import { AuditLogPage } from "./pages/audit-log-page";
import { SecurityPage } from "./pages/security-page";
import { SignUpPage } from "./pages/sign-up-page";

/**
 * The first click after a page appears reaches the app on a busy machine (docs/decisions/0062-first-click.md):
 * every core runs a busy loop beside the server, and the browser's CPU is slowed 6×, so the page's
 * JavaScript arrives well after its HTML. Each click is made as soon as its control is drawn, with
 * no wait for the network or hydration; a click the page swallowed would leave its dialog or page
 * unopened, and the assertion after it would fail.
 *
 * The loops run from a test's first page load until its first-click assertions have passed, not for
 * the whole file: a sign-up and a second factor set up beforehand, another person's browser, a page
 * without JavaScript need no busy machine, and the loops took the cores from the other e2e worker's
 * specs for the file's 50 s.
 */
const CPU_SLOWDOWN = 6;
let busyLoops: ChildProcess[] = [];

/** Every core busy from now until calm() (or the test's end). */
function busyMachine(): void {
  busyLoops = Array.from({ length: availableParallelism() }, () => spawn(process.execPath, ["-e", "for (;;);"], { stdio: "ignore" }));
}
function calm(): void {
  for (const loop of busyLoops) loop.kill("SIGKILL");
  busyLoops = [];
}
test.afterEach(calm);

async function slowDown(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: CPU_SLOWDOWN });
  busyMachine();
}

test.describe("as the owner", () => {
  test.use({ storageState: storageStateOf("owner") });
  test.beforeEach(async ({ page }) => slowDown(page));

  test("“Revoke” on the key list, reached from another settings page, opens its dialog on the first click", async ({ page }) => {
    await page.goto("/acme/settings/members", { waitUntil: "commit" });
    await page.getByRole("navigation", { name: "Settings" }).getByRole("link", { name: "API keys" }).click();
    await page
      .getByRole("button", { name: /^Revoke / })
      .first()
      .click();
    await expect(page.getByRole("alertdialog", { name: "Revoke API key" })).toBeVisible();
  });

  test("“Revoke” and “Create API key” on a freshly loaded key list open their dialogs on the first click", async ({ page }) => {
    await page.goto("/acme/settings/api", { waitUntil: "commit" });
    await page
      .getByRole("button", { name: /^Revoke / })
      .first()
      .click();
    const revoke = page.getByRole("alertdialog", { name: "Revoke API key" });
    await expect(revoke).toBeVisible();
    await revoke.getByRole("button", { name: "Cancel" }).click();

    await page.goto("/acme/settings/api", { waitUntil: "commit" });
    await page.getByRole("button", { name: "Create API key" }).click();
    await expect(page.getByRole("dialog", { name: "Create API key" })).toBeVisible();
  });

  test("an open “Revoke” dialog stays open while the list draws a key another person just created", async ({ page, browser }) => {
    await page.goto("/acme/settings/api", { waitUntil: "commit" });
    await page
      .getByRole("button", { name: /^Revoke / })
      .first()
      .click();
    const revoke = page.getByRole("alertdialog", { name: "Revoke API key" });
    await expect(revoke.getByRole("button", { name: "Revoke key" })).toBeVisible();
    calm();

    // Another owner's browser, at full speed, creates a key; this page's data refreshes, as a
    // server action's revalidation does (window.next.router is the App Router's own handle).
    const other = await browser.newContext({ storageState: storageStateOf("owner") });
    const otherKeys = new ApiKeysPage(await other.newPage());
    const name = `First click ${Date.now()}`;
    await otherKeys.revokeLeftovers(/First click \d+/);
    await otherKeys.createAndDismiss(name);
    await page.evaluate(() => (window as unknown as { next: { router: { refresh: () => void } } }).next.router.refresh());
    // The modal dialog hides the rest of the page from the accessibility tree: find the row by its text.
    await expect(page.locator("table").getByText(name, { exact: true })).toBeVisible();
    await expect(revoke.getByRole("button", { name: "Revoke key" })).toBeVisible();

    await revoke.getByRole("button", { name: "Cancel" }).click();
    await otherKeys.revokeLeftovers(/First click \d+/);
    await other.close();
  });

  test("the audit log's Live switch turns on at the first click", async ({ page }) => {
    await page.goto("/acme/settings/api/audit", { waitUntil: "commit" });
    const live = page.getByRole("switch", { name: "Live" });
    await live.click();
    await expect(live).toBeChecked();
    await expect(new AuditLogPage(page).liveStatus).toHaveText("Live: waiting for new requests");
  });
});

test("“Continue to” an organization that required two-factor goes there on the first click", async ({ page }) => {
  const stamp = Date.now();
  const password = "a-long-enough-password";
  await answerSudoModeWith(page, password);
  await page.goto("/signup");
  await new SignUpPage(page).signUp({ name: "Cora Click", email: `first-click-${stamp}@example.test`, password, organization: `Clicks ${stamp}` });
  await expect(page).toHaveURL(/\/settings\/api$/);
  const slug = new URL(page.url()).pathname.split("/")[1]!;
  const security = new SecurityPage(page);
  await security.goto();
  await security.setUpAuthenticatorApp();
  await security.confirmCodesSaved();

  await slowDown(page);
  await page.goto(`/settings/security?required=${slug}`, { waitUntil: "commit" });
  await page.getByRole("link", { name: `Continue to Clicks ${stamp}` }).click();
  await expect(page).toHaveURL(new RegExp(`/${slug}/settings/api$`));
  await expect(page.getByRole("heading", { name: "API keys", exact: true })).toBeVisible();
});

test("before the page's JavaScript runs, a control drawn disabled keeps its look, with a waiting cursor", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto("/signin");
  const submit = page.getByRole("button", { name: "Sign in", exact: true });
  await expect(submit).toBeDisabled();
  await expect(submit).toHaveAttribute("data-hydrating", "");
  await expect(submit).toHaveCSS("opacity", "1");
  await expect(submit).toHaveCSS("cursor", "progress");
  await context.close();
});
