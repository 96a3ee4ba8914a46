import { expect, type Browser, type BrowserContext, type Page } from "@playwright/test";
import { answerSudoModeMyself, DEMO_PASSWORD } from "../fixtures";

/**
 * A session of its own, signed in as `email` through /signin on its way to `path`, where sudo
 * mode's question is left to the spec: the role sessions of auth.setup.ts are shared, and other
 * specs renew them. `signedInAt` is when it began, for ageSessions.
 */
export async function ownSession(browser: Browser, email: string, path: string): Promise<{ context: BrowserContext; page: Page; signedInAt: number }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await answerSudoModeMyself(page);
  const signIn = new SignInPage(page);
  const signedInAt = Date.now();
  await signIn.goto(path);
  await signIn.signIn(email);
  await expect(page).toHaveURL((url) => `${url.pathname}${url.search}` === path);
  return { context, page, signedInAt };
}

export class SignInPage {
  constructor(private readonly page: Page) {}

  async goto(callbackUrl?: string) {
    await this.page.goto(callbackUrl ? `/signin?callbackUrl=${encodeURIComponent(callbackUrl)}` : "/signin");
  }

  async signIn(email: string, password = DEMO_PASSWORD) {
    await this.page.getByLabel("Email").fill(email);
    await this.page.getByLabel("Password").fill(password);
    await this.page.getByRole("button", { name: "Sign in" }).click();
  }

  async expectError(text: string | RegExp) {
    await expect(this.page.getByRole("alert").filter({ hasText: text })).toBeVisible();
  }
}
