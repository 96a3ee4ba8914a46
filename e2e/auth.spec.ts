import { expect, screenshot, storageStateOf, test, USERS } from "./fixtures";
import { SignInPage } from "./pages/sign-in-page";

test.describe("signed out", () => {
  test("is sent to sign-in and back to the page asked for", async ({ page }) => {
    await page.goto("/acme/settings/plan");
    await expect(page).toHaveURL(/\/signin\?callbackUrl=/);
    await screenshot(page, "sign-in");
    await new SignInPage(page).signIn(USERS.member.email);
    await expect(page).toHaveURL(/\/acme\/settings\/plan$/);
    await expect(page.getByRole("heading", { name: "Plan", exact: true })).toBeVisible();
  });

  test("a wrong password gets an error that does not say whether the email exists", async ({ page }) => {
    const signIn = new SignInPage(page);
    await signIn.goto();
    await signIn.signIn(USERS.owner.email, "not-the-password");
    await signIn.expectError("That email and password do not match an account.");
    await expect(page.getByLabel("Email")).toHaveValue(USERS.owner.email);
    await screenshot(page, "sign-in-failed");
    await signIn.signIn("nobody@nowhere.test", "not-the-password");
    await signIn.expectError("That email and password do not match an account.");
    await expect(page).toHaveURL(/\/signin/);
  });

  test("sign-up creates an account and a trial organization they own", async ({ page }) => {
    await page.goto("/signup");
    await screenshot(page, "sign-up");
    const email = `new-${Date.now()}@example.test`;
    await page.getByLabel("Your name").fill("Nora New");
    await page.getByLabel("Work email").fill(email);
    await page.getByLabel("Password").fill("short");
    await page.getByLabel("Organization name").fill("Nora's Bakery");
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page.getByText("Use at least 10 characters.")).toBeVisible();
    await page.getByLabel("Password").fill("a-long-enough-password");
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page).toHaveURL(/\/nora-s-bakery\/settings\/api$/);
    await expect(page.getByRole("button", { name: /Organization: Nora's Bakery/ })).toBeVisible();
    await expect(page.getByText("Trial", { exact: true }).first()).toBeVisible();
    await expect(page.getByRole("button", { name: "Create API key" })).toBeVisible();

    await page.goto("/signin");
    await expect(page).toHaveURL(/\/nora-s-bakery\/settings\/api$/);
  });

  test("sign-up refuses an email that already has an account", async ({ page }) => {
    await page.goto("/signup");
    await page.getByLabel("Your name").fill("Olivia Again");
    await page.getByLabel("Work email").fill(USERS.owner.email);
    await page.getByLabel("Password").fill("a-long-enough-password");
    await page.getByLabel("Organization name").fill("Copycat");
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page.getByText("An account with this email already exists. Sign in instead.")).toBeVisible();
  });
});

test.describe("signed in", () => {
  test.use({ storageState: storageStateOf("multi") });

  test("switches between the user's organizations", async ({ page }) => {
    await page.goto("/");
    const switcher = page.getByRole("button", { name: /Organization:/ });
    await expect(switcher).toBeVisible();
    await switcher.click();
    await screenshot(page, "org-switcher");
    const menu = page.getByRole("menu");
    await expect(menu.getByRole("menuitem", { name: /Globex/ })).toBeVisible();
    await expect(menu.getByRole("menuitem", { name: /Solo Studio/ })).toBeVisible();
    await menu.getByRole("menuitem", { name: /Solo Studio/ }).click();
    await expect(page).toHaveURL(/\/solo-studio\/settings\/api$/);
    await expect(page.getByRole("button", { name: "Organization: Solo Studio. Switch organization" })).toBeVisible();
    await expect(page.getByText("Your plan has no API access")).toBeVisible();
    await page.getByRole("button", { name: /Organization:/ }).click();
    await page.getByRole("menu").getByRole("menuitem", { name: /Globex/ }).click();
    await expect(page).toHaveURL(/\/globex\/settings\/api$/);
    await expect(page.getByRole("navigation", { name: "Settings" }).getByRole("link", { name: "API keys" })).toHaveAttribute("aria-current", "page");
  });

  test("an organization the user does not belong to is a 404", async ({ page }) => {
    const response = await page.goto("/acme/settings/api");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
    await screenshot(page, "not-found");
  });

  test("signs out", async ({ browser }) => {
    // A session of its own, so signing out does not end the shared one.
    const context = await browser.newContext({ storageState: undefined });
    const page = await context.newPage();
    await page.goto("/signin");
    await new SignInPage(page).signIn(USERS.multi.email);
    await expect(page.getByRole("heading", { name: "API keys" })).toBeVisible();
    await page.getByRole("button", { name: /Account menu/ }).click();
    await page.getByRole("menuitem", { name: "Sign out" }).click();
    await expect(page).toHaveURL(/\/signin/);
    await page.goto("/acme/settings/api");
    await expect(page).toHaveURL(/\/signin\?callbackUrl=/);
    await context.close();
  });
});
