import { ApiKeysPage } from "./pages/api-keys-page";
import { MembersPage } from "./pages/members-page";
import { expect, PHONE, POSTGRES, screenshot, storageStateOf, test } from "./fixtures";

test("an owner invites an admin, who signs up through the link, creates a key, and loses the button once demoted", async ({ browser }) => {
  // Two people through eight pages: 21 s alone, 55 s beside the first-click spec's busy loops on every core.
  test.slow();
  const email = `new.admin.${Date.now()}@example.com`;
  const name = "Nora Newcomer";
  const owner = await browser.newContext({ storageState: storageStateOf("owner") });
  const ownerPage = await owner.newPage();
  const members = new MembersPage(ownerPage);
  await members.goto();
  await screenshot(ownerPage, "members");
  const link = await members.invite(email, "Admin");
  await screenshot(ownerPage, "members-invitation-link");
  await ownerPage.getByRole("button", { name: "Done" }).click();
  await expect(members.invitations.getByRole("row").filter({ hasText: email })).toContainText("Admin");

  // The invited person has no account: they sign up through the link, the email fixed.
  const invited = await browser.newContext();
  const invitedPage = await invited.newPage();
  await invitedPage.goto(link);
  await expect(invitedPage.getByRole("heading", { name: "Join Acme Inc" })).toBeVisible();
  await expect(invitedPage.getByLabel("Email")).toHaveValue(email);
  await expect(invitedPage.getByLabel("Email")).toHaveAttribute("readonly", "");
  await screenshot(invitedPage, "invitation-sign-up");
  await invitedPage.getByLabel("Your name").fill(name);
  await invitedPage.getByLabel("Password").fill("a-long-enough-password");
  await invitedPage.getByRole("button", { name: "Create account and join" }).click();
  await expect(invitedPage).toHaveURL(/\/acme\/settings\/api$/);

  // As an admin they create a key.
  const keys = new ApiKeysPage(invitedPage);
  await keys.goto();
  const created = await keys.create("Invited admin's reporting job");
  await expect(created.getByLabel("API key")).toHaveValue(/^ik_/);
  await created.getByLabel("I have copied this key").check();
  await created.getByRole("button", { name: "Done" }).click();

  // The link works once.
  await invitedPage.goto(link);
  await expect(invitedPage.getByText("has already been used")).toBeVisible();

  // The owner sees them as an admin, and demotes them to member.
  await members.goto();
  await expect(members.member(email)).toContainText(name);
  await members.setRole(name, "Member");
  await expect(ownerPage.getByText(`${name} is now a member`)).toBeVisible();
  await ownerPage.setViewportSize(PHONE);
  await screenshot(ownerPage, "members-phone");
  await ownerPage.setViewportSize({ width: 1280, height: 900 });

  // On their next load the create button is gone.
  await keys.goto();
  await expect(invitedPage.getByRole("button", { name: "Create API key" })).toHaveCount(0);

  // Leave Acme as it was for the other specs: the key revoked, the newcomer removed.
  const ownerKeys = new ApiKeysPage(ownerPage);
  await ownerKeys.goto();
  await ownerKeys.row("Invited admin's reporting job").getByRole("button", { name: "Revoke Invited admin's reporting job" }).click();
  await ownerPage.getByRole("alertdialog", { name: "Revoke API key" }).getByRole("button", { name: "Revoke key" }).click();
  await expect(ownerKeys.row("Invited admin's reporting job")).toHaveCount(0);
  await members.goto();
  await members.remove(name);
  await expect(members.member(email)).toHaveCount(0);
  // Removed: Acme does not exist for them any more, and they land where a person with no organization does.
  expect((await invitedPage.goto("/acme/settings/api"))?.status()).toBe(404);
  await invitedPage.goto("/");
  await expect(invitedPage.getByRole("heading", { name: "You are not in an organization" })).toBeVisible();
  await screenshot(invitedPage, "no-organization");
  await owner.close();
  await invited.close();
});

test(
  "a newcomer who joins through an invitation sees the address they browse on in Make your first call, without a reload",
  POSTGRES,
  async ({ browser, baseURL }) => {
    // Another name for this server than the one it calls itself by (localhost): the page rendered
    // with the sign-up's answer must still show the browser's own address.
    const browsedOrigin = new URL(baseURL!).origin.replace("localhost", "127.0.0.1");
    const stamp = Date.now();
    const email = `new.member.${stamp}@example.com`;
    // Unique, so a run that stopped before its clean-up leaves no namesake behind.
    const name = `Noel Newcomer ${stamp}`;
    const owner = await browser.newContext({ storageState: storageStateOf("owner") });
    const members = new MembersPage(await owner.newPage());
    await members.goto();
    const link = await members.invite(email, "Member");

    const invited = await browser.newContext({ baseURL: browsedOrigin });
    const invitedPage = await invited.newPage();
    await invitedPage.goto(new URL(link).pathname);
    await invitedPage.getByLabel("Your name").fill(name);
    await invitedPage.getByLabel("Password").fill("a-long-enough-password");
    await invitedPage.getByRole("button", { name: "Create account and join" }).click();
    await expect(invitedPage).toHaveURL(`${browsedOrigin}/acme/settings/api`);
    const quickstart = invitedPage.getByText("Base address:");
    await expect(quickstart).toContainText(`${browsedOrigin}/v1`);
    await expect(invitedPage.getByLabel("curl example", { exact: true })).toContainText(`curl ${browsedOrigin}/v1/invoices`);

    // Leave Acme as it was for the other specs.
    await members.goto();
    await members.remove(name);
    await expect(members.member(email)).toHaveCount(0);
    await owner.close();
    await invited.close();
  },
);

test("an admin can invite members and guests but not owners or admins", async ({ browser }) => {
  const context = await browser.newContext({ storageState: storageStateOf("admin") });
  const page = await context.newPage();
  const members = new MembersPage(page);
  await members.goto();
  // The owner's and the other admins' roles are not theirs to change.
  await expect(page.getByRole("combobox", { name: "Role of Olivia Owens" })).toHaveCount(0);
  await expect(page.getByRole("combobox", { name: "Role of Mia Moreau" })).toBeVisible();
  const dialog = await members.openInviteDialog();
  await dialog.getByRole("combobox", { name: "Role" }).click();
  await expect(page.getByRole("option")).toHaveText(["Member", "Guest"]);
  await page.keyboard.press("Escape");
  await screenshot(page, "members-invite-admin");
  await context.close();
});

test("a guest has no Members page; a made-up invitation link says it is not valid", async ({ browser }) => {
  const context = await browser.newContext({ storageState: storageStateOf("guest") });
  const page = await context.newPage();
  await page.goto("/acme/settings/api");
  await expect(page.getByRole("navigation", { name: "Settings" }).getByRole("link", { name: "Members" })).toHaveCount(0);
  await page.goto("/acme/settings/members");
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
  await page.goto(`/invite/inv_${"0".repeat(32)}`);
  await expect(page.getByRole("heading", { name: "This invitation cannot be used" })).toBeVisible();
  await expect(page.getByText("This invitation link is not valid.")).toBeVisible();
  await context.close();
});

test("the only owner's role and Leave are disabled with why, and another member's new role is confirmed first", async ({ browser }) => {
  const context = await browser.newContext({ storageState: storageStateOf("owner") });
  const page = await context.newPage();
  const members = new MembersPage(page);
  await members.goto();
  const why = "You are the only owner: transfer ownership first.";
  await expect(members.roleSelect("Olivia Owens")).toBeDisabled();
  await expect(members.roleSelect("Olivia Owens")).toHaveAccessibleDescription(why);
  await page.getByRole("button", { name: "Actions for Olivia Owens" }).click();
  const leave = page.getByRole("menuitem", { name: /^Leave organization/ });
  await expect(leave).toBeDisabled();
  await expect(leave).toContainText(why);
  await screenshot(page, "members-last-owner");
  await page.keyboard.press("Escape");

  // Another member's role: a confirmation says what the new role allows; Cancel changes nothing.
  const dialog = await members.chooseNewRole("Mia Moreau", "Guest");
  await expect(dialog).toHaveAccessibleName("Make Mia Moreau a guest?");
  await expect(dialog).toContainText("Sees the API keys");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
  await expect(members.roleSelect("Mia Moreau")).toHaveText("Member");
  await members.goto();
  await expect(members.roleSelect("Mia Moreau")).toHaveText("Member");
  await context.close();
});
