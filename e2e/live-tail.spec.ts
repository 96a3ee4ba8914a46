import { expect, PHONE, POSTGRES, screenshot, storageStateOf, test } from "./fixtures";
import { ApiKeysPage } from "./pages/api-keys-page";
import { AuditLogPage } from "./pages/audit-log-page";

test("a member watches the audit log live, opens a 400's details and finds the request again by its id", POSTGRES, async ({ browser, request }) => {
  const admin = await browser.newContext({ storageState: storageStateOf("admin") });
  const owner = await browser.newContext({ storageState: storageStateOf("owner") });
  const member = await browser.newContext({ storageState: storageStateOf("member") });
  const keys = new ApiKeysPage(await admin.newPage());
  const name = `Live tail check ${Date.now()}`;
  await keys.goto();
  const value = await keys.keepValue(await keys.create(name));

  const page = await member.newPage();
  const audit = new AuditLogPage(page);
  await audit.goto("?status=4xx");
  await audit.turnLiveOn();

  // Three failures the filter shows, and a success it does not.
  const call = (method: "GET" | "POST" | "DELETE", path: string, data?: string, headers: Record<string, string> = {}) =>
    request.fetch(path, { method, headers: { "X-API-Key": value, "Content-Type": "application/json", ...headers }, data });
  const sent = '{"name": "", "email": "not-an-email", "note": "live tail check"}';
  // Sent in the caller's trace: its details page names the trace (docs/operations.md#traces).
  const callerTrace = "4bf92f3577b34da6a3ce929d0e0e4736";
  const invalid = await call("POST", "/v1/customers", sent, { traceparent: `00-${callerTrace}-00f067aa0ba902b7-01` });
  expect(invalid.status()).toBe(400);
  const invalidId = invalid.headers()["x-request-id"]!;
  expect((await call("GET", "/v1/invoices/in_live_missing")).status()).toBe(404);
  expect((await call("GET", "/v1/customers?limit=7")).status()).toBe(200);
  expect((await call("DELETE", "/v1/customers/cus_live_missing")).status()).toBe(404);

  const rows = audit.rows;
  await expect(rows.nth(1)).toContainText("/v1/customers/cus_live_missing");
  await expect(rows.nth(2)).toContainText("/v1/invoices/in_live_missing");
  await expect(rows.nth(3)).toContainText("/v1/customers");
  await expect(rows.nth(3)).toContainText("400");
  await expect(audit.liveStatus).toHaveText("Live: 3 new requests");
  await expect(audit.table.getByText("/v1/customers?limit=7")).toHaveCount(0);
  // The table fits the page at desktop width: nothing scrolls sideways.
  const table = await audit.table.evaluate((node) => ({ scroll: node.parentElement!.scrollWidth, client: node.parentElement!.clientWidth }));
  expect(table.scroll).toBeLessThanOrEqual(table.client);
  await screenshot(page, "audit-live");

  // Paused, a new request is held until resumed.
  await page.getByRole("button", { name: "Pause" }).click();
  expect((await call("GET", "/v1/invoices/in_live_held")).status()).toBe(404);
  await expect(audit.liveStatus).toHaveText("Paused: 1 new request held");
  await expect(audit.table.getByText("/v1/invoices/in_live_held")).toHaveCount(0);
  await page.getByRole("button", { name: "Resume" }).click();
  await expect(rows.nth(1)).toContainText("/v1/invoices/in_live_held");

  await page.setViewportSize(PHONE);
  await screenshot(page, "audit-live-phone");
  await page.setViewportSize({ width: 1280, height: 900 });

  // The 400's details: the validation error and the body as it was sent.
  await rows.nth(4).getByRole("link", { name: "/v1/customers" }).click();
  await expect(page).toHaveURL(new RegExp(`/acme/settings/api/audit/${invalidId}$`));
  await expect(page.getByRole("heading", { level: 1 })).toContainText("/v1/customers");
  await expect(page.getByRole("note", { name: "Error message" })).toContainText("not valid");
  await expect(page.getByRole("list", { name: "Validation errors" })).toContainText("emailNot a valid email address.");
  await expect(page.getByLabel("Request body", { exact: true })).toContainText('"email": "not-an-email"');
  await expect(page.getByLabel("Response body", { exact: true })).toContainText('"code": "validation_failed"');
  await expect(page.getByText(invalidId, { exact: true })).toBeVisible();
  await expect(page.getByText(callerTrace, { exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: "Copy trace ID" })).toBeVisible();
  await screenshot(page, "request-details");
  await page.setViewportSize(PHONE);
  await screenshot(page, "request-details-phone");
  await page.setViewportSize({ width: 1280, height: 900 });

  // Its id, pasted into the audit log's search, opens the same page.
  await audit.goto();
  await audit.findRequest(invalidId);
  await expect(page).toHaveURL(new RegExp(`/acme/settings/api/audit/${invalidId}$`));
  await expect(page.getByLabel("Request body", { exact: true })).toContainText("not-an-email");
  // An id of nothing in this organization is not found, as an unknown key is.
  await audit.goto();
  await audit.findRequest("req_0000000000000000000000");
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();

  const ownerKeys = new ApiKeysPage(await owner.newPage());
  await ownerKeys.goto();
  await ownerKeys.revokeNow(name);
  await Promise.all([admin.close(), owner.close(), member.close()]);
});
