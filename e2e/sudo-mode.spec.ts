import { ageSessions, DEMO_PASSWORD, expect, PHONE, screenshot, SUDO_MODE_SECONDS, sudoDialog, test, USERS } from "./fixtures";
import { ApiKeysPage } from "./pages/api-keys-page";
import { ownSession } from "./pages/sign-in-page";

test("revoking a key asks for the password again once sudo mode has run out", async ({ browser }) => {
  const { context, page, signedInAt } = await ownSession(browser, USERS.owner.email, "/acme/settings/api");

  const keys = new ApiKeysPage(page);
  // One key, revoked in the end: Acme's plan allows 10 active keys, and other specs create theirs.
  await keys.revokeLeftovers(/Sudo revoked \d+/);
  const name = `Sudo revoked ${signedInAt}`;
  await keys.createAndDismiss(name);
  // The session this context signed in, and only it: the roles' shared sessions keep their clocks.
  expect(await ageSessions(USERS.owner.email, signedInAt, SUDO_MODE_SECONDS)).toBe(1);

  // Cancelled, the question leaves the key as it was and the dialog says why nothing happened.
  await keys
    .row(name)
    .getByRole("button", { name: `Revoke ${name}` })
    .click();
  const revokeDialog = page.getByRole("alertdialog", { name: "Revoke API key" });
  await revokeDialog.getByRole("button", { name: "Revoke key" }).click();
  const question = sudoDialog(page);
  await expect(question).toBeVisible();
  await expect(question).toContainText("This is a sensitive change. Enter your password to continue; you will not be asked again for 30 seconds.");
  await question.getByRole("button", { name: "Cancel" }).click();
  await expect(question).toBeHidden();
  await expect(revokeDialog.getByRole("alert")).toContainText("Confirm it's you");
  await revokeDialog.getByRole("button", { name: "Cancel" }).click();
  await expect(keys.row(name)).toContainText("Active");

  // A wrong password is refused on its field; the right one lets the revoke through.
  await keys
    .row(name)
    .getByRole("button", { name: `Revoke ${name}` })
    .click();
  await revokeDialog.getByRole("button", { name: "Revoke key" }).click();
  await expect(question).toBeVisible();
  await question.getByLabel("Password").fill("not-the-password");
  await question.getByRole("button", { name: "Confirm" }).click();
  await expect(question.getByText("That password is not right.")).toBeVisible();
  await screenshot(page, "sudo-mode");
  await page.setViewportSize(PHONE);
  await screenshot(page, "sudo-mode-phone");
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  await page.setViewportSize({ width: 1280, height: 860 });

  await question.getByLabel("Password").fill(DEMO_PASSWORD);
  await question.getByRole("button", { name: "Confirm" }).click();
  await expect(question).toBeHidden();
  await expect(revokeDialog).toBeHidden();
  await expect(page.getByText(`Revoked “${name}”`)).toBeVisible();
  await expect(keys.row(name)).toHaveCount(0);
  await context.close();
});
