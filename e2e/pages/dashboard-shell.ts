import { expect, type Locator, type Page } from "@playwright/test";

/** What every signed-in page shares: the header, the settings nav and the main content. */
export class DashboardShell {
  readonly settingsNav: Locator;
  readonly currentTab: Locator;
  readonly main: Locator;

  constructor(private readonly page: Page) {
    this.settingsNav = page.getByRole("navigation", { name: "Settings" });
    this.currentTab = this.settingsNav.locator('[aria-current="page"]');
    this.main = page.getByRole("main");
  }

  async openAccountMenu() {
    await this.page.getByRole("button", { name: /Account menu for/ }).click();
  }

  async signOut() {
    await this.openAccountMenu();
    await this.page.getByRole("menuitem", { name: "Sign out", exact: true }).click();
    await expect(this.page).toHaveURL(/\/signin$/);
  }

  async openSettingsTab(name: string) {
    await this.settingsNav.getByRole("link", { name, exact: true }).click();
    await expect(this.currentTab).toHaveText(name);
  }

  /** How many pixels the page is wider than the window: anything above 0 scrolls sideways. */
  horizontalOverflow(): Promise<number> {
    return this.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  }

  /** Whether the current settings tab lies wholly inside the nav's visible box (not scrolled out of it). */
  currentTabInView(): Promise<boolean> {
    return this.currentTab.evaluate((tab) => {
      const nav = tab.closest("nav")!.getBoundingClientRect();
      const box = tab.getBoundingClientRect();
      // Scrolled to its end, the row's last tab can overhang by a fraction of a pixel of layout rounding.
      return box.left >= nav.left - 1 && box.right <= nav.right + 1 && box.right <= window.innerWidth + 1;
    });
  }
}
