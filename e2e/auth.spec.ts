import { axe, expect, POSTGRES, screenshot, storageStateOf, test, USERS } from "./fixtures";
import { SignInPage } from "./pages/sign-in-page";
import { SignUpPage } from "./pages/sign-up-page";

test.describe("signed out", () => {
  test("is sent to sign-in and back to the page asked for", async ({ page }) => {
    await page.goto("/acme/settings/plan");
    await expect(page).toHaveURL(/\/signin\?callbackUrl=/);
    await screenshot(page, "sign-in");
    await new SignInPage(page).signIn(USERS.member.email);
    await expect(page).toHaveURL(/\/acme\/settings\/plan$/);
    await expect(page.getByRole("heading", { name: "Plan", exact: true })).toBeVisible();
  });

  test("is sent back to the page asked for on whichever host it came in on", async ({ browser, baseURL }) => {
    // Next's own address for itself is localhost:PORT (server.ts); the way back must not depend on it.
    const context = await browser.newContext({ baseURL: baseURL!.replace("localhost", "127.0.0.1") });
    const page = await context.newPage();
    await page.goto("/acme/settings/plan?from=bookmark");
    await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/signin\?callbackUrl=%2Facme%2Fsettings%2Fplan%3Ffrom%3Dbookmark$/);
    await new SignInPage(page).signIn(USERS.member.email);
    await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/acme\/settings\/plan\?from=bookmark$/);
    await expect(page.getByRole("heading", { name: "Plan", exact: true })).toBeVisible();
    await context.close();
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

  test("sign-up creates an account and a trial organization they own", POSTGRES, async ({ page }) => {
    const signUp = new SignUpPage(page);
    await signUp.goto();
    await screenshot(page, "sign-up");
    const account = { name: "Nora New", email: `new-${Date.now()}@example.test`, password: "short", organization: "Nora's Bakery" };
    await signUp.signUp(account);
    await expect(page.getByText("Use at least 10 characters.")).toBeVisible();
    await signUp.signUp({ ...account, password: "a-long-enough-password" });
    await expect(page).toHaveURL(/\/nora-s-bakery\/settings\/api$/);
    await expect(page.getByRole("button", { name: /Organization: Nora's Bakery/ })).toBeVisible();
    await expect(page.getByText("Trial", { exact: true }).first()).toBeVisible();
    await expect(page.getByRole("button", { name: "Create API key" })).toBeVisible();

    await page.goto("/signin");
    await expect(page).toHaveURL(/\/nora-s-bakery\/settings\/api$/);
  });

  test("sign-up refuses an email that already has an account", async ({ page }) => {
    const signUp = new SignUpPage(page);
    await signUp.goto();
    await signUp.signUp({ name: "Olivia Again", email: USERS.owner.email, password: "a-long-enough-password", organization: "Copycat" });
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
    await expect(page.getByRole("button", { name: "Organization: Solo Studio Solo", exact: true })).toBeVisible();
    await expect(page.getByText("Your plan has no API access")).toBeVisible();
    await page.getByRole("button", { name: /Organization:/ }).click();
    await page
      .getByRole("menu")
      .getByRole("menuitem", { name: /Globex/ })
      .click();
    await expect(page).toHaveURL(/\/globex\/settings\/api$/);
    await expect(page.getByRole("navigation", { name: "Settings" }).getByRole("link", { name: "API keys" })).toHaveAttribute("aria-current", "page");
  });

  test("an organization the user does not belong to is a 404", async ({ page }) => {
    const response = await page.goto("/acme/settings/api");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
    await screenshot(page, "not-found");
  });

  test("a return address that leaves the site after normalisation goes to the start page", async ({ page }) => {
    for (const callbackUrl of ["/.//evil.example/x", "/./\\evil.example/x", "//evil.example/x"]) {
      const response = await page.request.get(`/signin?callbackUrl=${encodeURIComponent(callbackUrl)}`, { maxRedirects: 0 });
      expect(response.status()).toBe(307);
      expect(response.headers().location).toBe("/");
    }
  });

  test("the account menu's accessible name contains the initials it shows", async ({ page }) => {
    await page.goto("/globex/settings/api");
    await expect(page.getByRole("button", { name: /^AK: Account menu for Alex Kim$/ })).toBeVisible();
    const { violations } = await axe(page).include('button[aria-label*="Account menu"]').withRules(["label-content-name-mismatch"]).analyze();
    expect(violations).toEqual([]);
  });

  test("signs out, and a saved copy of that session's cookies no longer signs anyone in", POSTGRES, async ({ browser }) => {
    // A session of its own, so signing out does not end the shared one.
    const context = await browser.newContext({ storageState: undefined });
    const page = await context.newPage();
    await page.goto("/signin");
    await new SignInPage(page).signIn(USERS.multi.email);
    await expect(page.getByRole("heading", { name: "API keys" })).toBeVisible();
    const saved = await context.storageState();
    await page.getByRole("button", { name: /Account menu/ }).click();
    await page.getByRole("menuitem", { name: "Sign out", exact: true }).click();
    await expect(page).toHaveURL(/\/signin/);
    // The sign-in page drawn: sign-out's own navigation has landed and cannot overtake the next one.
    await expect(page.getByRole("button", { name: "Sign in" })).toBeVisible();
    await page.goto("/acme/settings/api");
    await expect(page).toHaveURL(/\/signin\?callbackUrl=/);
    await context.close();

    const replay = await browser.newContext({ storageState: saved });
    const replayed = await replay.newPage();
    await replayed.goto("/globex/settings/api");
    await expect(replayed).toHaveURL(/\/signin/);
    await expect(replayed.getByRole("button", { name: "Sign in" })).toBeVisible();
    await replay.close();
  });

  test("sign out everywhere, after confirming, ends the user's sessions in every browser", async ({ browser }) => {
    // A user of its own: signing the demo users out everywhere would end the shared sessions.
    const account = {
      name: "Evan Everywhere",
      email: `everywhere-${Date.now()}@example.test`,
      password: "a-long-enough-password",
      organization: "Everywhere Ltd",
    };
    const laptop = await browser.newContext({ storageState: undefined });
    const laptopPage = await laptop.newPage();
    await new SignUpPage(laptopPage).goto();
    await new SignUpPage(laptopPage).signUp(account);
    await expect(laptopPage.getByRole("heading", { name: "API keys", exact: true })).toBeVisible();

    const phone = await browser.newContext({ storageState: undefined });
    const phonePage = await phone.newPage();
    await new SignInPage(phonePage).goto();
    await new SignInPage(phonePage).signIn(account.email, account.password);
    await expect(phonePage.getByRole("heading", { name: "API keys", exact: true })).toBeVisible();

    await laptopPage.getByRole("button", { name: /Account menu/ }).click();
    await laptopPage.getByRole("menuitem", { name: "Sign out everywhere…" }).click();
    const confirm = laptopPage.getByRole("alertdialog", { name: "Sign out everywhere?" });
    await expect(confirm).toContainText(`This ends every session of ${account.email}`);
    await screenshot(laptopPage, "sign-out-everywhere");
    await confirm.getByRole("button", { name: "Cancel" }).click();
    await phonePage.reload();
    await expect(phonePage.getByRole("heading", { name: "API keys", exact: true })).toBeVisible();

    await laptopPage.getByRole("button", { name: /Account menu/ }).click();
    await laptopPage.getByRole("menuitem", { name: "Sign out everywhere…" }).click();
    await laptopPage.getByRole("alertdialog").getByRole("button", { name: "Sign out everywhere" }).click();
    await expect(laptopPage).toHaveURL(/\/signin/);
    await phonePage.reload();
    await expect(phonePage).toHaveURL(/\/signin/);
    await laptop.close();
    await phone.close();
  });
});
