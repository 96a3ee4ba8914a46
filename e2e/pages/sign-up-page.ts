import type { Page } from "@playwright/test";

export interface NewAccount {
  name: string;
  email: string;
  password: string;
  organization: string;
}

export class SignUpPage {
  constructor(private readonly page: Page) {}

  async goto() {
    await this.page.goto("/signup");
  }

  async signUp(account: NewAccount) {
    await this.page.getByLabel("Your name").fill(account.name);
    await this.page.getByLabel("Work email").fill(account.email);
    await this.page.getByLabel("Password").fill(account.password);
    await this.page.getByLabel("Organization name").fill(account.organization);
    await this.page.getByRole("button", { name: "Create account" }).click();
  }
}
