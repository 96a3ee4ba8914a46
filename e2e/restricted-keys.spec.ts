import type { APIRequestContext, Page } from "@playwright/test";
import { expect, PHONE, screenshot, storageStateOf, test } from "./fixtures";
import { ApiKeysPage } from "./pages/api-keys-page";
import { chooseOption, chosenOption } from "./native-select";

async function call(request: APIRequestContext, value: string, method: "GET" | "POST", path: string) {
  const response =
    method === "GET" ? await request.get(path, { headers: { "X-API-Key": value } }) : await request.post(path, { headers: { "X-API-Key": value }, data: {} });
  const body = response.status() >= 400 ? ((await response.json()) as { error: { code: string; message: string } }).error : null;
  return { status: response.status(), code: body?.code, message: body?.message };
}

/** The owner revokes the key, so the test leaves the organization's key count as it found it. */
async function revokeAsOwner(page: Page, name: string) {
  const keys = new ApiKeysPage(page);
  await keys.goto();
  await keys.revokeNow(name);
}

test("an admin creates a read-only key and a restricted key with an allowlist; the API answers each as its access says", async ({ browser, request }) => {
  const admin = await browser.newContext({ storageState: storageStateOf("admin") });
  const owner = await browser.newContext({ storageState: storageStateOf("owner") });
  const page = await admin.newPage();
  const ownerPage = await owner.newPage();
  const keys = new ApiKeysPage(page);
  const stamp = Date.now();
  await new ApiKeysPage(ownerPage).revokeLeftovers(/(Finance dashboard|Reporting job) \d+/);

  // A read-only key: GETs pass, anything else is refused with the permission it would need.
  const readOnlyName = `Finance dashboard ${stamp}`;
  await keys.goto();
  let form = await keys.openCreateDialog();
  await form.getByLabel("Name").fill(readOnlyName);
  await form.getByRole("radio", { name: /^Read only/ }).check();
  const readOnly = await keys.keepValue(await keys.create(readOnlyName, form));
  expect((await call(request, readOnly, "GET", "/v1/analytics")).status).toBe(200);
  const post = await call(request, readOnly, "POST", "/v1/customers");
  expect(post).toMatchObject({ status: 403, code: "api_key_scope_insufficient" });
  expect(post.message).toContain("The request needs the write permission on customers.");
  await expect(keys.row(readOnlyName).getByText("Read only", { exact: true })).toBeVisible();
  // Acme's plan allows 10 active keys and the other specs leave up to 9: one at a time.
  await revokeAsOwner(ownerPage, readOnlyName);

  // A restricted key, analytics only, from one address that is not this machine's.
  const restrictedName = `Reporting job ${stamp}`;
  form = await keys.openCreateDialog();
  await form.getByLabel("Name").fill(restrictedName);
  await form.getByRole("radio", { name: /^Restricted/ }).check();
  await form.getByRole("radiogroup", { name: "Analytics" }).getByRole("radio", { name: "Read" }).check();
  const allowlist = form.getByRole("textbox", { name: "IP allowlist (optional)" });
  // Checked as it is typed: a range with host bits gets its correction.
  await allowlist.fill("203.0.113.10/24");
  await allowlist.blur();
  await expect(form.getByRole("alert")).toContainText("did you mean 203.0.113.0/24?");
  await allowlist.fill("203.0.113.10");
  await allowlist.blur();
  await expect(form.getByRole("alert")).toHaveCount(0);
  await screenshot(page, "create-key-restricted");
  const restricted = await keys.keepValue(await keys.create(restrictedName, form));
  const fromHere = await call(request, restricted, "GET", "/v1/analytics");
  expect(fromHere).toMatchObject({ status: 403, code: "ip_not_allowed" });
  const row = keys.row(restrictedName);
  await expect(row.getByText("Restricted", { exact: true })).toBeVisible();
  await expect(row.getByText("IP-restricted", { exact: true })).toBeVisible();
  await screenshot(page, "api-keys-restricted-badges");

  // The admin lets this machine in on the key's page; the next calls are decided by the new rule.
  const href = await row.getByRole("link", { name: restrictedName, exact: true }).getAttribute("href");
  await keys.openKey(restrictedName, href!.split("/").pop()!);
  await expect(page.getByText("Access: Restricted")).toBeVisible();
  await expect(page.getByRole("list", { name: "Allowed addresses" })).toHaveText("203.0.113.10");
  await page.getByRole("button", { name: "Edit access" }).click();
  const edit = page.getByRole("dialog", { name: "Edit access" });
  await edit.getByRole("textbox", { name: "IP allowlist (optional)" }).fill("203.0.113.10\n127.0.0.1\n::1");
  await screenshot(page, "edit-key-access");
  await edit.getByRole("button", { name: "Save access" }).click();
  await expect(page.getByText(`Access of “${restrictedName}” saved`)).toBeVisible();
  await expect(page.getByRole("list", { name: "Allowed addresses" })).toContainText("127.0.0.1");
  expect((await call(request, restricted, "GET", "/v1/analytics")).status).toBe(200);
  const invoices = await call(request, restricted, "GET", "/v1/invoices");
  expect(invoices).toMatchObject({ status: 403, code: "api_key_scope_insufficient" });
  expect(invoices.message).toBe(
    "This API key cannot read invoices. The request needs the read permission on invoices. An admin can change the key's access in the dashboard.",
  );
  await page.reload();
  const can = page.getByLabel("What this key can do");
  await expect(can.locator("div").filter({ hasText: "Analytics" })).toContainText("Read");
  await expect(can.locator("div").filter({ hasText: "Invoices" })).toContainText("No access");
  await screenshot(page, "key-page-access");
  await page.setViewportSize(PHONE);
  await screenshot(page, "key-page-access-phone");

  // The key's history says who changed what.
  await expect(page.getByRole("listitem", { name: `Key access changed: ${restrictedName}` })).toContainText("203.0.113.10, 127.0.0.1, ::1");
  await page.setViewportSize({ width: 1280, height: 860 });

  // The audit log shows just the allowlist's refusals, by their code.
  await page.goto("/acme/settings/api/audit");
  await chooseOption(page.getByRole("combobox", { name: "Refusal" }), /^IP not allowed/);
  await expect(page).toHaveURL(/[?&]error=ip_not_allowed/);
  await expect(chosenOption(page.getByRole("combobox", { name: "Status" }))).toHaveText("403");
  const refused = page.getByRole("table", { name: "API requests" }).getByRole("row").filter({ hasText: "ip_not_allowed" });
  await expect(refused.first()).toBeVisible();
  await expect(page.getByRole("table", { name: "API requests" }).getByRole("row").filter({ hasText: "api_key_scope_insufficient" })).toHaveCount(0);
  await screenshot(page, "audit-log-refusals");

  await revokeAsOwner(ownerPage, restrictedName);
  await admin.close();
  await owner.close();
});
