import type { Page } from "@playwright/test";
import { answerSudoModeWith, expect, PHONE, screenshot, test } from "./fixtures";
import { DashboardShell } from "./pages/dashboard-shell";
import { SecurityPage } from "./pages/security-page";
import { SignInPage } from "./pages/sign-in-page";
import { SignUpPage } from "./pages/sign-up-page";

const PASSWORD = "a-long-enough-password";

/**
 * Chromium's virtual authenticator (the DevTools protocol's WebAuthn domain): a platform passkey
 * with user verification, answering every navigator.credentials call of this page as a device
 * with Touch ID would, without a person's touch.
 */
async function addVirtualAuthenticator(page: Page) {
  const devtools = await page.context().newCDPSession(page);
  await devtools.send("WebAuthn.enable");
  await devtools.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
}

test("a person adds a passkey and signs in with it as their second factor", async ({ page }) => {
  const account = { name: "Pat Passkey", email: `passkey-${Date.now()}@example.test`, password: PASSWORD, organization: `Passkey Works ${Date.now()}` };
  await page.goto("/signup");
  await new SignUpPage(page).signUp(account);
  // Adding a passkey is a sudo-mode change, answered with this account's own password.
  await answerSudoModeWith(page, PASSWORD);
  await expect(page).toHaveURL(/\/settings\/api$/);
  await addVirtualAuthenticator(page);

  const security = new SecurityPage(page);
  await security.goto();
  await security.addPasskey("Laptop Touch ID");
  // The first second factor turns two-factor on and brings the recovery codes, shown once.
  await expect(page.getByRole("list", { name: "Recovery codes" }).getByRole("listitem")).toHaveCount(10);
  await security.confirmCodesSaved();
  const listed = page.getByRole("list", { name: "Your passkeys" });
  await expect(listed).toContainText("Laptop Touch ID");
  await expect(listed).toContainText("Never used");
  await screenshot(page, "security-passkey");
  await page.setViewportSize(PHONE);
  await screenshot(page, "security-passkey-phone");
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  await page.setViewportSize({ width: 1280, height: 860 });

  // Sign-in now asks for the passkey after the password.
  await new DashboardShell(page).signOut();
  const signIn = new SignInPage(page);
  await signIn.goto("/settings/security");
  await signIn.signIn(account.email, PASSWORD);
  await expect(page).toHaveURL(/\/signin\/two-factor/);
  await expect(page.getByRole("button", { name: "Use your passkey" })).toBeVisible();
  await screenshot(page, "sign-in-passkey");
  await page.getByRole("button", { name: "Use your passkey" }).click();
  await expect(page).toHaveURL(/\/settings\/(api|security)$/);
  await security.goto();
  await expect(page.getByRole("list", { name: "Your passkeys" })).toContainText("Last used");

  // The history of the person's organization says a passkey was added.
  await new DashboardShell(page).openSettingsTab("Activity");
  await expect(page.getByRole("list", { name: "Changes" }).getByText("Passkey added")).toBeVisible();
});

test("on an IP address, adding a passkey says to open the dashboard by its host name instead of the browser's raw refusal", async ({ browser, baseURL }) => {
  // WebAuthn refuses an IP address as a passkey's site; a person who typed 127.0.0.1 learns the address that works.
  const localhost = new URL(baseURL!).origin;
  const context = await browser.newContext({ baseURL: localhost.replace("localhost", "127.0.0.1") });
  const page = await context.newPage();
  await addVirtualAuthenticator(page);
  await page.goto("/signup");
  await new SignUpPage(page).signUp({
    name: "Ivy Address",
    email: `ip-passkey-${Date.now()}@example.test`,
    password: PASSWORD,
    organization: `By Address ${Date.now()}`,
  });
  await expect(page).toHaveURL(/\/settings\/api$/);
  await new SecurityPage(page).goto();
  await page.getByRole("button", { name: "Add a passkey" }).click();
  const dialog = page.getByRole("dialog", { name: "Add a passkey" });
  await dialog.getByLabel("Name").fill("Laptop");
  await dialog.getByRole("button", { name: "Continue" }).click();
  await expect(dialog.getByRole("alert")).toHaveText(`Passkeys need the dashboard's host name, not an IP address: open it at ${localhost}.`);
  await screenshot(page, "security-passkey-ip-address");
  await page.setViewportSize(PHONE);
  await screenshot(page, "security-passkey-ip-address-phone");
  await context.close();
});
