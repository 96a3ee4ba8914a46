import { expect, type Locator, type Page } from "@playwright/test";
import { chooseOption } from "../native-select";

/** Settings › API keys of one organization. */
export class ApiKeysPage {
  readonly table: Locator;

  constructor(
    private readonly page: Page,
    private readonly orgSlug = "acme",
  ) {
    this.table = page.getByRole("table");
  }

  /** Opens the page and waits until it has settled (streamed and hydrated), so a click reaches the app. */
  async goto(mode: "live" | "test" = "live") {
    await this.page.goto(`/${this.orgSlug}/settings/api${mode === "test" ? "?mode=test" : ""}`, { waitUntil: "networkidle" });
    await expect(this.page.getByRole("heading", { name: "API keys", exact: true })).toBeVisible();
  }

  row(name: string): Locator {
    return this.table.getByRole("row").filter({ has: this.page.getByRole("link", { name, exact: true }) });
  }

  /**
   * Opens a key's page from its name in the list. In full e2e runs a first click is sometimes
   * swallowed by Next's client router (no navigation request goes out while it re-prefetches the
   * settings links; never seen when the file runs alone): a person clicks again, and so does this.
   */
  async openKey(name: string, keyId: string) {
    const link = this.row(name).getByRole("link", { name, exact: true });
    await expect(async () => {
      if (!this.page.url().endsWith(`/keys/${keyId}`)) await link.click();
      await expect(this.page).toHaveURL(new RegExp(`/keys/${keyId}$`), { timeout: 5_000 });
    }).toPass({ timeout: 20_000 });
  }

  async showStatus(label: "Active" | "Expiring within 7 days" | "Expired" | "Revoked" | "Unused for 30 days" | "All keys") {
    await chooseOption(this.page.getByRole("combobox", { name: "Filter by status" }), label);
  }

  /** Creates a key named `name` with the defaults, confirming its value was copied. */
  async createAndDismiss(name: string) {
    const shown = await this.create(name);
    await shown.getByRole("checkbox", { name: "I have copied this key" }).check();
    await shown.getByRole("button", { name: "Done" }).click();
    await expect(this.row(name)).toBeVisible();
  }

  /** Takes the value from the one-time dialog `shown`, confirms it was copied and closes it. */
  async keepValue(shown: Locator): Promise<string> {
    const value = await shown.getByLabel("API key").inputValue();
    await shown.getByRole("checkbox", { name: "I have copied this key" }).check();
    await shown.getByRole("button", { name: "Done" }).click();
    await expect(shown).toBeHidden();
    return value;
  }

  /**
   * Revokes (as an owner) every active key whose whole name matches `names`. A spec calls it first,
   * for what an interrupted earlier attempt left (a retry would meet the plan's key limit), and
   * last, so it leaves the organization's key count as it found it: Acme's plan allows 10 active
   * keys, the seed has 6, and every spec on the server shares them.
   */
  async revokeLeftovers(names: RegExp, mode: "live" | "test" = "live") {
    await this.goto(mode);
    const revokeButtons = this.table.getByRole("button", { name: new RegExp(`^Revoke ${names.source}$`) });
    for (let left = await revokeButtons.count(); left > 0; left--) {
      await revokeButtons.first().click();
      const dialog = this.page.getByRole("alertdialog", { name: "Revoke API key" });
      await dialog.getByRole("button", { name: "Revoke key" }).click();
      await expect(dialog).toBeHidden();
      await expect(revokeButtons).toHaveCount(left - 1);
    }
  }

  /** Revokes the key named `name` (owners) without a reason. */
  async revokeNow(name: string) {
    await this.row(name)
      .getByRole("button", { name: `Revoke ${name}` })
      .click();
    const dialog = this.page.getByRole("alertdialog", { name: "Revoke API key" });
    await dialog.getByRole("button", { name: "Revoke key" }).click();
    await this.revoked(name, dialog);
  }

  /**
   * Waits until the key is shown revoked. The dialog alone is no sign: sudo mode's question
   * (answered by e2e/fixtures.ts) replaces it before the revocation is sent, and a spec that moved
   * on at that point left the page before it was.
   */
  private async revoked(name: string, dialog: Locator) {
    await expect(dialog).toBeHidden();
    await expect(this.row(name).getByRole("button", { name: `Revoke ${name}` })).toHaveCount(0);
  }

  /** Revokes the key named `name` (owners) with a reason and a note for the history. */
  async revoke(name: string, reason: string, note: string) {
    await this.row(name)
      .getByRole("button", { name: `Revoke ${name}` })
      .click();
    const dialog = this.page.getByRole("alertdialog", { name: "Revoke API key" });
    await dialog.getByRole("combobox", { name: "Reason (optional)" }).click();
    await this.page.getByRole("option", { name: reason, exact: true }).click();
    await dialog.getByRole("textbox", { name: /^Note/ }).fill(note);
    await dialog.getByRole("button", { name: "Revoke key" }).click();
    await this.revoked(name, dialog);
  }

  /** Opens the creation dialog; returns it. */
  async openCreateDialog(): Promise<Locator> {
    await this.page.getByRole("button", { name: "Create API key" }).click();
    return this.page.getByRole("dialog", { name: "Create API key" });
  }

  /**
   * Names the key in the creation dialog and submits; returns the dialog that shows the key's value.
   * Opens the dialog first unless the caller already has (`form`, from openCreateDialog). A refusal
   * (the plan's key limit, a field) fails here with the form's words, not as the test's timeout later.
   */
  async create(name: string, form?: Locator): Promise<Locator> {
    const dialog = form ?? (await this.openCreateDialog());
    await dialog.getByLabel("Name").fill(name);
    await dialog.getByRole("button", { name: "Create key" }).click();
    const shown = this.page.getByRole("dialog", { name: "Save your API key" });
    // (The form may still show an earlier refusal while this submission runs: only the outcome counts.)
    await shown.waitFor({ timeout: 15_000 }).catch(async (error: unknown) => {
      const said = await dialog.getByRole("alert").allInnerTexts();
      throw new Error(`Creating the key “${name}” showed no key${said.length ? `; the form says: ${said.join(" / ")}` : ""}`, { cause: error });
    });
    return shown;
  }
}
