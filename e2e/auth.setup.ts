import { expect, test } from "@playwright/test";
import { storageStateOf, USERS, type DemoRole } from "./fixtures";
import { SignInPage } from "./pages/sign-in-page";

for (const role of Object.keys(USERS) as DemoRole[]) {
  test(`sign in as ${role}`, async ({ page }) => {
    const signIn = new SignInPage(page);
    await signIn.goto();
    await signIn.signIn(USERS[role].email);
    await expect(page).toHaveURL(new RegExp(`/${USERS[role].lands}/settings/api$`));
    await expect(page.getByRole("heading", { name: "API keys", exact: true })).toBeVisible();
    const nav = page.getByRole("navigation", { name: "Settings" });
    await expect(nav.getByText("API Access and Activity")).toBeVisible();
    await expect(nav.getByRole("link", { name: "API keys" })).toBeVisible();
    await page.context().storageState({ path: storageStateOf(role) });
  });
}
