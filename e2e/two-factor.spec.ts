import { generate } from "otplib";
import { answerSudoModeWith, expect, PHONE, POSTGRES, screenshot, test } from "./fixtures";
import { DashboardShell } from "./pages/dashboard-shell";
import { MembersPage } from "./pages/members-page";
import { SecurityPage } from "./pages/security-page";
import { SignInPage } from "./pages/sign-in-page";
import { SignUpPage } from "./pages/sign-up-page";

const PASSWORD = "a-long-enough-password";
const PERIOD_SECONDS = 30;

/** The code an authenticator app shows `steps` periods from now (the setup used this period's). */
const codeFor = (secret: string, steps: number) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + steps * PERIOD_SECONDS });

test.describe("two-factor sign-in", () => {
  test("a person sets up an authenticator app, then signs in with a code, and again with a recovery code", POSTGRES, async ({ page }) => {
    const account = { name: "Tina Totp", email: `totp-${Date.now()}@example.test`, password: PASSWORD, organization: `Totp Works ${Date.now()}` };
    await page.goto("/signup");
    await new SignUpPage(page).signUp(account);
    // Adding a second factor is a sudo-mode change, answered with this account's own password.
    await answerSudoModeWith(page, PASSWORD);
    await expect(page).toHaveURL(/\/settings\/api$/);
    const orgHome = new URL(page.url()).pathname;

    const security = new SecurityPage(page);
    const shell = new DashboardShell(page);
    await shell.openAccountMenu();
    await page.getByRole("menuitem", { name: "Security" }).click();
    await expect(page).toHaveURL(/\/settings\/security$/);
    await expect(page.getByText("Off", { exact: true })).toHaveCount(2);
    await screenshot(page, "security-off");

    const secret = await security.startSetup();
    await screenshot(page, "security-setup");
    const recoveryCodes = await security.confirmSetup(secret);
    await screenshot(page, "security-recovery-codes");
    await security.confirmCodesSaved();
    await expect(page.getByText("On", { exact: true })).toBeVisible();
    await expect(page.getByText("10 of 10 left")).toBeVisible();
    await screenshot(page, "security-on");

    // Signing in now takes two steps; the password alone reaches only the second.
    await shell.signOut();
    const signIn = new SignInPage(page);
    await signIn.goto("/settings/security");
    await signIn.signIn(account.email, PASSWORD);
    await expect(page).toHaveURL(/\/signin\/two-factor\?callbackUrl=%2Fsettings%2Fsecurity$/);
    await expect(page.getByRole("heading", { name: "Two-factor authentication" })).toBeVisible();
    await screenshot(page, "sign-in-two-factor");

    await page.getByLabel("Authentication code").fill(await codeFor(secret, 1));
    await page.getByRole("button", { name: "Verify" }).click();
    await expect(page).toHaveURL(/\/settings\/security$/);
    await expect(page.getByText("On", { exact: true })).toBeVisible();

    // Again, with a recovery code in place of the phone.
    await shell.signOut();
    await signIn.goto();
    await signIn.signIn(account.email, PASSWORD);
    await expect(page).toHaveURL(/\/signin\/two-factor/);
    // The password alone reaches no page: each sends it back to the second step, which returns to it after.
    await page.goto(orgHome);
    await expect(page).toHaveURL(new RegExp(`/signin/two-factor\\?callbackUrl=${encodeURIComponent(orgHome)}$`));
    await page.goto("/settings/security");
    await expect(page).toHaveURL(/\/signin\/two-factor\?callbackUrl=%2Fsettings%2Fsecurity$/);
    await page.getByRole("button", { name: "Use a recovery code instead" }).click();
    await page.getByLabel("Recovery code").fill("wrong-codes");
    await page.getByRole("button", { name: "Verify" }).click();
    await expect(page.getByText("That recovery code does not match, or it was used already.")).toBeVisible();
    await page.getByLabel("Recovery code").fill(recoveryCodes[0]!);
    await page.getByRole("button", { name: "Verify" }).click();
    await expect(page).toHaveURL(/\/settings\/security$/);
    await expect(page.getByText("9 of 10 left")).toBeVisible();

    // The organization's history says what changed.
    await shell.openSettingsTab("Activity");
    await expect(page.getByRole("list", { name: "Changes" }).getByText("Authenticator app added")).toBeVisible();
  });

  test("the second step at phone width does not scroll sideways", async ({ page }) => {
    await page.setViewportSize(PHONE);
    const account = { name: "Pia Phone", email: `totp-phone-${Date.now()}@example.test`, password: PASSWORD, organization: `Phone Works ${Date.now()}` };
    await page.goto("/signup");
    await new SignUpPage(page).signUp(account);
    await answerSudoModeWith(page, PASSWORD);
    await expect(page).toHaveURL(/\/settings\/api$/);
    const security = new SecurityPage(page);
    await security.goto();
    const secret = await security.startSetup();
    await screenshot(page, "phone-security-setup");
    const shell = new DashboardShell(page);
    expect(await shell.horizontalOverflow()).toBeLessThanOrEqual(0);
    await security.confirmSetup(secret);
    await screenshot(page, "phone-security-recovery-codes");
    expect(await shell.horizontalOverflow()).toBeLessThanOrEqual(0);
    await security.confirmCodesSaved();
    await shell.signOut();
    const signIn = new SignInPage(page);
    await signIn.goto();
    await signIn.signIn(account.email, PASSWORD);
    await expect(page.getByRole("heading", { name: "Two-factor authentication" })).toBeVisible();
    await screenshot(page, "phone-sign-in-two-factor");
    expect(await shell.horizontalOverflow()).toBeLessThanOrEqual(0);
  });
});

test.describe("the organization's requirement", () => {
  test("an owner requires two-factor; a member without it is taken to set it up and reaches no page of the organization until done", async ({ browser }) => {
    const stamp = Date.now();
    const ownerContext = await browser.newContext();
    const owner = await ownerContext.newPage();
    // Inviting, requiring two-factor and adding one are sudo-mode changes, answered with these accounts' own password.
    await answerSudoModeWith(owner, PASSWORD);
    await owner.goto("/signup");
    await new SignUpPage(owner).signUp({ name: "Rita Require", email: `require-${stamp}@example.test`, password: PASSWORD, organization: `Strict ${stamp}` });
    await expect(owner).toHaveURL(/\/settings\/api$/);
    const slug = new URL(owner.url()).pathname.split("/")[1]!;
    const members = new MembersPage(owner, slug);

    // An owner without two-factor cannot require it: the button says why and where to go.
    await members.goto();
    await expect(owner.getByRole("button", { name: "Require two-factor for everyone…" })).toBeDisabled();
    await expect(owner.getByRole("link", { name: "Set up two-factor for yourself" })).toBeVisible();
    const ownerSecurity = new SecurityPage(owner);
    await ownerSecurity.goto();
    await ownerSecurity.setUpAuthenticatorApp();
    await ownerSecurity.confirmCodesSaved();

    // A member joins through an invitation, without two-factor.
    await members.goto();
    const memberEmail = `strict-member-${stamp}@example.test`;
    const link = await members.invite(memberEmail, "Member");
    await owner.keyboard.press("Escape");
    const memberContext = await browser.newContext();
    const member = await memberContext.newPage();
    await answerSudoModeWith(member, PASSWORD);
    await member.goto(link);
    await member.getByLabel("Your name").fill("Max Member");
    await member.getByLabel("Password").fill(PASSWORD);
    await member.getByRole("button", { name: "Create account and join" }).click();
    await expect(member).toHaveURL(new RegExp(`/${slug}/settings/api$`));

    await members.goto();
    await owner.getByRole("button", { name: "Require two-factor for everyone…" }).click();
    const confirm = owner.getByRole("alertdialog");
    await expect(confirm).toContainText("1 member does not have it yet");
    await confirm.getByRole("button", { name: "Require two-factor" }).click();
    await expect(owner.getByText("Required for everyone", { exact: true })).toBeVisible();
    await expect(members.member(memberEmail).getByText("Off")).toBeVisible();
    await screenshot(owner, "members-two-factor-required");

    // The member's next page load takes them to set it up; every page of the organization does.
    for (const path of [`/${slug}/settings/api`, `/${slug}/settings/members`, `/${slug}/settings/api/activity`]) {
      await member.goto(path);
      await expect(member).toHaveURL(new RegExp(`/settings/security\\?required=${slug}$`));
    }
    await expect(member.getByText(`Strict ${stamp} requires two-factor authentication`)).toBeVisible();
    await screenshot(member, "security-required");
    const memberSecurity = new SecurityPage(member);
    await memberSecurity.setUpAuthenticatorApp();
    await memberSecurity.confirmCodesSaved();
    await member.getByRole("link", { name: `Continue to Strict ${stamp}` }).click();
    await expect(member).toHaveURL(new RegExp(`/${slug}/settings/api$`));
    await expect(member.getByRole("heading", { name: "API keys", exact: true })).toBeVisible();

    await members.goto();
    await expect(members.member(memberEmail).getByText("On")).toBeVisible();
    await ownerContext.close();
    await memberContext.close();
  });
});
