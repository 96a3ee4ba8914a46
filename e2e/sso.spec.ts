import type { Page } from "@playwright/test";
import { generate } from "otplib";
import { DnsServer } from "../tests/helpers/dns-server";
import { startOidcProvider, type LocalOidcProvider } from "../tests/helpers/oidc-provider";
import { ageSessions, answerSudoModeMyself, answerSudoModeWith, expect, PHONE, screenshot, SUDO_MODE_SECONDS, sudoDialog, test } from "./fixtures";
import { MembersPage } from "./pages/members-page";
import { SecurityPage } from "./pages/security-page";
import { SignInPage } from "./pages/sign-in-page";
import { SignUpPage } from "./pages/sign-up-page";
import { serverOrigin, workerServer } from "./servers";

// Single sign-on end to end (docs/features/sso.md) against a real OpenID provider (oidc-provider, its
// own login and consent pages) and a DNS server answering the domain's TXT record, both on 127.0.0.1:
// the server looks domains up at the port e2e/start-server.sh gives it.

const PASSWORD = "a-long-enough-password";

let provider: LocalOidcProvider;
const dns = new DnsServer();

test.beforeAll(async () => {
  provider = await startOidcProvider({ redirectUris: [`${serverOrigin(workerServer())}/api/auth/sso/callback`] });
  await dns.start(3290 + workerServer());
});
test.afterAll(async () => {
  await provider.stop();
  await dns.stop();
});

/** Signs in at the provider's own pages as `sub`, as a person would. */
async function signInAtProvider(page: Page, sub: string) {
  await expect(page.getByRole("button", { name: "Sign-in" })).toBeVisible();
  await page.locator('input[name="login"]').fill(sub);
  await page.locator('input[name="password"]').fill("anything");
  await page.getByRole("button", { name: "Sign-in" }).click();
  // The consent page shows the first time a person uses this client; otherwise the provider sends the browser back.
  const consent = page.getByRole("button", { name: "Continue" });
  const next = async () => (!page.url().startsWith(provider.url) ? "back" : (await consent.isVisible()) ? "consent" : "waiting");
  await expect.poll(next, { timeout: 15_000 }).not.toBe("waiting");
  if ((await next()) === "consent") await consent.click();
  await expect(page).not.toHaveURL((url) => url.href.startsWith(provider.url));
}

/**
 * Signs the page's browser out. The page closes before the cookies go: every answer re-sends the
 * rolling session cookie (lib/auth/config.ts), so one still on its way (a link's prefetch) would
 * sign the browser back in after a bare `clearCookies`.
 */
async function signedOut(page: Page): Promise<Page> {
  const context = page.context();
  await page.close();
  await context.clearCookies();
  return context.newPage();
}

/** "Sign in with SSO" from the sign-in page, by work email, through the provider as `sub`. */
async function signInWithSso(page: Page, email: string, sub: string) {
  await page.goto("/signin");
  await page.getByRole("link", { name: "Sign in with SSO" }).click();
  await page.getByLabel("Work email").fill(email);
  await page.getByRole("button", { name: "Continue with SSO" }).click();
  await signInAtProvider(page, sub);
}

test("an owner sets up SSO, a new person joins through it, Require SSO keeps password sessions out, and sudo mode asks the provider", async ({ browser }) => {
  test.slow();
  const stamp = Date.now();
  const domain = `sso-${stamp}.example`;
  const owner = { name: "Olivia Owner", email: `owner-${stamp}@example.test`, password: PASSWORD, organization: `Federated ${stamp}` };
  const ownerContext = await browser.newContext();
  let page = await ownerContext.newPage();
  await answerSudoModeWith(page, PASSWORD);
  await page.goto("/signup");
  await new SignUpPage(page).signUp(owner);
  await expect(page).toHaveURL(/\/settings\/api$/);
  const slug = new URL(page.url()).pathname.split("/")[1]!;

  // The owner connects the provider and proves the domain.
  await page.goto(`/${slug}/settings/sso`);
  await expect(page.getByRole("heading", { name: "Single sign-on", exact: true })).toBeVisible();
  await page.getByLabel("Issuer URL").fill(provider.issuer);
  await page.getByLabel("Client ID").fill(provider.clientId);
  await page.getByLabel("Client secret").fill(provider.clientSecret);
  await page.getByRole("button", { name: "Save provider" }).click();
  await expect(page.getByText("…7Hq2")).toBeVisible();
  await page.getByRole("textbox", { name: "Domain" }).fill(domain);
  await page.getByRole("button", { name: "Add domain" }).click();
  const record = page.getByRole("listitem").filter({ hasText: domain });
  const value = (await record.getByText(/^invoicing-verification=/).innerText()).trim();
  dns.txt.set(`_invoicing-verification.${domain}`, [value]);
  await record.getByRole("button", { name: `Verify ${domain}` }).click();
  await expect(record.getByText("Verified", { exact: true })).toBeVisible();
  await screenshot(page, "sso-set-up");

  // A new person signs in through the provider and lands as a member.
  const newcomer = { sub: `newcomer-${stamp}`, email: `nina-${stamp}@${domain}` };
  provider.setAccount(newcomer.sub, { email: newcomer.email, email_verified: true, name: "Nina Newcomer" });
  const newcomerContext = await browser.newContext();
  const person = await newcomerContext.newPage();
  await answerSudoModeMyself(person);
  const signedInAt = Date.now();
  await signInWithSso(person, newcomer.email, newcomer.sub);
  await expect(person).toHaveURL(new RegExp(`/${slug}(/|$)`));
  const members = new MembersPage(page, slug);
  await members.goto();
  await expect(members.member(newcomer.email)).toContainText("Member");
  await expect(members.member(newcomer.email)).toContainText("SSO");
  await screenshot(page, "sso-members");

  // Someone with a password at the domain signs in through the provider too, and is linked.
  const linked = { name: "Paul Password", email: `paul-${stamp}@${domain}`, password: PASSWORD, organization: `Paul's ${stamp}` };
  const linkedContext = await browser.newContext();
  let paul = await linkedContext.newPage();
  await paul.goto("/signup");
  await new SignUpPage(paul).signUp(linked);
  await expect(paul).toHaveURL(/\/settings\/api$/);
  provider.setAccount(`paul-${stamp}`, { email: linked.email, email_verified: true });
  paul = await signedOut(paul);
  await signInWithSso(paul, linked.email, `paul-${stamp}`);
  await paul.goto(`/${slug}`);
  await expect(paul).toHaveURL(new RegExp(`/${slug}/`));

  // Require SSO: Paul's password session is sent to sign in with SSO; the owner's still works.
  await page.goto(`/${slug}/settings/sso`);
  await page.getByRole("button", { name: "Require SSO…" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Require SSO" }).click();
  await expect(page.getByText("Single sign-on is now required")).toBeVisible();
  await screenshot(page, "sso-required");
  await page.setViewportSize(PHONE);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  await screenshot(page, "sso-required-phone");
  await page.setViewportSize({ width: 1280, height: 860 });

  paul = await signedOut(paul);
  const signIn = new SignInPage(paul);
  await signIn.goto(`/${slug}`);
  await signIn.signIn(linked.email, PASSWORD);
  await expect(paul).toHaveURL(/\/signin\/sso\?required=/);
  await expect(paul.getByRole("status").filter({ hasText: "This organization requires single sign-on" })).toBeVisible();
  await expect(paul.getByLabel("Work email")).toHaveValue(linked.email);
  await screenshot(paul, "sso-sign-in-required");
  await paul.setViewportSize(PHONE);
  expect(await paul.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  await screenshot(paul, "sso-sign-in-required-phone");
  // Through the provider, the same person goes on to the organization.
  await paul.getByRole("button", { name: "Continue with SSO" }).click();
  await signInAtProvider(paul, `paul-${stamp}`);
  await expect(paul).toHaveURL(new RegExp(`/${slug}/`));

  page = await signedOut(page);
  await new SignInPage(page).goto(`/${slug}/settings/sso`);
  await new SignInPage(page).signIn(owner.email, PASSWORD);
  await expect(page).toHaveURL(new RegExp(`/${slug}/settings/sso$`));

  // Sudo mode under a session the provider made asks the provider again.
  await person.goto("/settings/security");
  expect(await ageSessions(newcomer.email, signedInAt - 60_000, SUDO_MODE_SECONDS)).toBeGreaterThan(0);
  const security = new SecurityPage(person);
  // Turning the authenticator app on is the sudo-mode change.
  await person.getByLabel("Authentication code").fill(await generate({ secret: await security.startSetup() }));
  await person.getByRole("button", { name: "Verify and turn on" }).click();
  await expect(sudoDialog(person).getByRole("button", { name: "Continue with single sign-on" })).toBeVisible();
  await expect(sudoDialog(person).getByLabel("Password")).toHaveCount(0);
  await screenshot(person, "sso-sudo-mode");
  await sudoDialog(person).getByRole("button", { name: "Continue with single sign-on" }).click();
  await signInAtProvider(person, newcomer.sub);
  await expect(person).toHaveURL(/\/settings\/security$/);
  await security.setUpAuthenticatorApp();
  await expect(sudoDialog(person)).toBeHidden();

  await Promise.all([ownerContext.close(), newcomerContext.close(), linkedContext.close()]);
});
