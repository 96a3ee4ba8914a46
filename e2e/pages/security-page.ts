import { expect, type Page } from "@playwright/test";
import { generate } from "otplib";

/** /settings/security (docs/features/two-factor.md): the person's own two-factor sign-in. */
export class SecurityPage {
  constructor(private readonly page: Page) {}

  async goto() {
    await this.page.goto("/settings/security");
    await expect(this.page.getByRole("heading", { name: "Security", exact: true })).toBeVisible();
  }

  /** Starts the setup: the QR code shows, and the setup key a person would type into an app instead. */
  async startSetup(): Promise<string> {
    await this.page.getByRole("button", { name: "Set up authenticator app" }).click();
    await expect(this.page.getByRole("img", { name: /QR code/ })).toBeVisible();
    return (await this.page.getByLabel("Setup key", { exact: true }).innerText()).replace(/\s/g, "");
  }

  /** Confirms the setup with the app's code now: the recovery codes it shows once. */
  async confirmSetup(secret: string): Promise<string[]> {
    await this.page.getByLabel("Authentication code").fill(await generate({ secret }));
    await this.page.getByRole("button", { name: "Verify and turn on" }).click();
    const list = this.page.getByRole("list", { name: "Recovery codes" });
    await expect(list.getByRole("listitem")).toHaveCount(10);
    return list.getByRole("listitem").allInnerTexts();
  }

  async setUpAuthenticatorApp(): Promise<{ secret: string; recoveryCodes: string[] }> {
    const secret = await this.startSetup();
    return { secret, recoveryCodes: await this.confirmSetup(secret) };
  }

  /** Adds a passkey named `name`: the browser's authenticator (a virtual one in tests) makes it; the first brings recovery codes. */
  async addPasskey(name: string) {
    await this.page.getByRole("button", { name: "Add a passkey" }).click();
    const dialog = this.page.getByRole("dialog", { name: "Add a passkey" });
    await dialog.getByLabel("Name").fill(name);
    await dialog.getByRole("button", { name: "Continue" }).click();
    await expect(dialog).toBeHidden();
  }

  async confirmCodesSaved() {
    await this.page.getByRole("button", { name: "I have saved them" }).click();
    await expect(this.page.getByRole("list", { name: "Recovery codes" })).toHaveCount(0);
  }
}
