import { expect, storageStateOf, test } from "./fixtures";
import { DashboardShell } from "./pages/dashboard-shell";

test.describe("the skip link", () => {
  test.use({ storageState: storageStateOf("owner") });

  test("is the first thing Tab reaches, shows itself when focused and moves the keyboard past the header and nav into the main content", async ({ page }) => {
    const shell = new DashboardShell(page);
    await page.goto("/acme/settings/members", { waitUntil: "networkidle" });
    const skip = page.getByRole("link", { name: "Skip to content" });
    await expect(skip).not.toBeInViewport();

    await page.keyboard.press("Tab");
    await expect(skip).toBeFocused();
    await expect(skip).toBeInViewport();

    await page.keyboard.press("Enter");
    await expect(skip).not.toBeInViewport();
    await page.keyboard.press("Tab");
    // The next stop is inside the main content, not the header's organization switcher.
    expect(await shell.main.evaluate((main) => main.contains(document.activeElement))).toBe(true);
  });
});
