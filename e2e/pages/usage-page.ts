import { expect, type Locator, type Page } from "@playwright/test";
import { chooseOption } from "../native-select";

/** Settings › Usage of one organization. */
export class UsagePage {
  readonly filters: Locator;

  constructor(
    private readonly page: Page,
    private readonly orgSlug = "acme",
  ) {
    this.filters = page.getByRole("region", { name: "Filters" });
  }

  /** Opens the page and waits until it has settled (streamed and hydrated), so a click reaches the app. */
  async goto(query = "") {
    const response = await this.page.goto(`/${this.orgSlug}/settings/api/usage${query}`, { waitUntil: "networkidle" });
    return response;
  }

  /** Chooses an option of one of the filter bar's selects and waits for the URL to hold it. */
  async choose(filter: "Date range" | "API key" | "Endpoint" | "Method" | "Status", option: string | RegExp, url: RegExp) {
    await chooseOption(this.filters.getByRole("combobox", { name: filter }), option);
    await expect(this.page).toHaveURL(url);
    await expect(this.filters).toHaveAttribute("aria-busy", "false");
  }

  tab(name: "By key" | "By endpoint" | "By key × endpoint"): Locator {
    return this.page.getByRole("tab", { name, exact: true });
  }

  table(name: "by key" | "by endpoint" | "by key × endpoint"): Locator {
    return this.page.getByRole("table", { name: `Usage ${name}` });
  }

  /** Sorts a table by a column, descending. */
  async sortDescending(table: Locator, column: string) {
    const header = table.getByRole("columnheader", { name: column, exact: true });
    await expect(async () => {
      if ((await header.getAttribute("aria-sort")) !== "descending") await header.getByRole("button").click();
      await expect(header).toHaveAttribute("aria-sort", "descending", { timeout: 1_000 });
    }).toPass({ timeout: 10_000 });
  }

  /** A column's cells as numbers in milliseconds ("1.25 s" → 1250). */
  async latencies(table: Locator, column: number): Promise<number[]> {
    const texts = await table.locator(`tbody tr td:nth-child(${column})`).allInnerTexts();
    return texts.map((text) => (text.endsWith(" s") ? Number.parseFloat(text) * 1000 : Number.parseFloat(text)));
  }
}
