import { expect, type Locator, type Page } from "@playwright/test";

/** Settings › Audit log of one organization, with its live tail and request search (docs/features/audit-log.md, docs/features/live-tail.md). */
export class AuditLogPage {
  readonly table: Locator;
  /** The table's rows, the header first: row 1 is the newest request. */
  readonly rows: Locator;
  readonly liveStatus: Locator;

  constructor(
    private readonly page: Page,
    private readonly orgSlug = "acme",
  ) {
    this.table = page.getByRole("table", { name: "API requests" });
    this.rows = this.table.getByRole("row");
    this.liveStatus = page.locator("#audit-live-status");
  }

  /** Opens the log (with `query`, e.g. "?status=4xx") and waits until it has settled, so a click reaches the app. */
  async goto(query = "") {
    await this.page.goto(`/${this.orgSlug}/settings/api/audit${query}`, { waitUntil: "networkidle" });
    await expect(this.page.getByRole("heading", { name: "Audit log", exact: true })).toBeVisible();
  }

  /** Turns the Live switch on and waits until the stream is open. */
  async turnLiveOn() {
    await this.page.getByRole("switch", { name: "Live" }).click();
    await expect(this.liveStatus).toHaveText("Live: waiting for new requests");
  }

  /** Pastes a request id into "Find a request" and submits it. */
  async findRequest(requestId: string) {
    const search = this.page.getByRole("search", { name: "Find a request by ID" });
    await search.getByRole("textbox", { name: "Request ID" }).fill(requestId);
    await search.getByRole("button", { name: "Find" }).click();
  }
}
