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
    options: { protocol: "ctap2", transport: "internal", hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
}

test("a person adds a passkey and signs in with it as their second factor (SPEC §16)", async ({ page }) => {
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
  await expect(page.getByText("Passkey added")).toBeVisible();
});
