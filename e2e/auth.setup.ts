import { expect, test } from "@playwright/test";
import { storageStateOf, USERS, type DemoRole } from "./fixtures";
import { SignInPage } from "./pages/sign-in-page";
import { E2E_WORKERS, serverOrigin } from "./servers";

// Sessions are rows of each server's own database, so every role signs in on every server; the
// sign-ins are independent, so they spread over the workers.
test.describe.configure({ mode: "parallel" });
for (let server = 0; server < E2E_WORKERS; server++) {
  for (const role of Object.keys(USERS) as DemoRole[]) {
    test(`sign in as ${role} on server ${server}`, async ({ browser }) => {
      const context = await browser.newContext({ baseURL: serverOrigin(server) });
      const page = await context.newPage();
      const signIn = new SignInPage(page);
      await signIn.goto();
      await signIn.signIn(USERS[role].email);
      await expect(page).toHaveURL(new RegExp(`/${USERS[role].lands}/settings/api$`));
      await expect(page.getByRole("heading", { name: "API keys", exact: true })).toBeVisible();
      const nav = page.getByRole("navigation", { name: "Settings" });
      await expect(nav.getByText("API Access and Activity")).toBeVisible();
      await expect(nav.getByRole("link", { name: "API keys" })).toBeVisible();
      await context.storageState({ path: storageStateOf(role, server) });
      await context.close();
    });
  }
}
