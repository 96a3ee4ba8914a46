import { expect, type Locator, type Page } from "@playwright/test";

/** Settings › Members of one organization. */
export class MembersPage {
  readonly members: Locator;
  readonly invitations: Locator;

  constructor(
    private readonly page: Page,
    private readonly orgSlug = "acme",
  ) {
    this.members = page.getByRole("table", { name: "Members" });
    this.invitations = page.getByRole("table", { name: "Pending invitations" });
  }

  async goto() {
    await this.page.goto(`/${this.orgSlug}/settings/members`, { waitUntil: "networkidle" });
    await expect(this.page.getByRole("heading", { name: "Members", exact: true })).toBeVisible();
  }

  member(email: string): Locator {
    return this.members.getByRole("row").filter({ hasText: email });
  }

  /** Opens "Invite member"; returns its dialog. */
  async openInviteDialog(): Promise<Locator> {
    await this.page.getByRole("button", { name: "Invite member" }).click();
    return this.page.getByRole("dialog", { name: "Invite a member" });
  }

  async chooseRole(dialog: Locator, role: string) {
    await dialog.getByRole("combobox", { name: "Role" }).click();
    await this.page.getByRole("option", { name: role, exact: true }).click();
  }

  /** Invites `email` as `role`; returns the link the dialog shows once, and leaves the dialog open. */
  async invite(email: string, role: string): Promise<string> {
    const dialog = await this.openInviteDialog();
    await dialog.getByLabel("Email").fill(email);
    await this.chooseRole(dialog, role);
    await dialog.getByRole("button", { name: "Create invitation" }).click();
    const link = this.page.getByRole("dialog", { name: `Send this link to ${email}` }).getByLabel("Invitation link");
    await expect(link).toHaveValue(/\/invite\/inv_/);
    return link.inputValue();
  }

  roleSelect(name: string): Locator {
    return this.page.getByRole("combobox", { name: `Role of ${name}` });
  }

  /** Chooses a new role for `name`; returns the confirmation it asks for. */
  async chooseNewRole(name: string, role: string): Promise<Locator> {
    await this.roleSelect(name).click();
    await this.page.getByRole("option", { name: new RegExp(`^${role}`) }).click();
    return this.page.getByRole("alertdialog");
  }

  /** Changes the role of `name` to `role`, confirming. */
  async setRole(name: string, role: string) {
    const dialog = await this.chooseNewRole(name, role);
    await dialog.getByRole("button", { name: /^Change (my )?role$/ }).click();
    await expect(dialog).toBeHidden();
  }

  /** Removes `name` from the organization, through the row's menu and its confirmation. */
  async remove(name: string) {
    await this.page.getByRole("button", { name: `Actions for ${name}` }).click();
    await this.page.getByRole("menuitem", { name: "Remove from organization" }).click();
    await expect(this.page.getByRole("alertdialog")).toContainText("loses access");
    await this.page.getByRole("alertdialog").getByRole("button", { name: "Remove member" }).click();
    // Done when the change says so (sudo mode's question, when asked, is answered meanwhile): while a
    // dialog is open the page behind it is hidden from role queries, and "no such row" would hold.
    await expect(this.page.getByText(`${name} was removed from`)).toBeVisible();
  }
}
