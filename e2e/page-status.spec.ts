import { request, type APIRequestContext } from "@playwright/test";
import { expect, storageStateOf, test, type DemoRole } from "./fixtures";
import { serverOrigin, workerServer } from "./servers";

// The status line of a page as clients, monitors and crawlers get it: plain HTTP through server.ts,
// no browser. A page's status goes out with its first byte, before a loading.tsx skeleton.

/**
 * What Next.js sends for notFound() when it decides before streaming: an error shell whose payload
 * carries this digest, from which the browser shows app/not-found.tsx (the specs that open these
 * pages in Chromium see its heading). Every page's payload holds that component, unrendered, so
 * its text alone would prove nothing.
 */
const NOT_FOUND_DIGEST = "NEXT_HTTP_ERROR_FALLBACK;404";

async function signedInAs(role: DemoRole): Promise<APIRequestContext> {
  return request.newContext({ baseURL: serverOrigin(workerServer()), storageState: storageStateOf(role) });
}

async function expectNotFound(client: APIRequestContext, path: string) {
  const response = await client.get(path, { maxRedirects: 0 });
  expect(response.status(), path).toBe(404);
  expect(await response.text(), path).toContain(NOT_FOUND_DIGEST);
}

async function expectShown(client: APIRequestContext, path: string) {
  const response = await client.get(path, { maxRedirects: 0 });
  expect(response.status(), path).toBe(200);
  expect(await response.text(), path).not.toContain(NOT_FOUND_DIGEST);
}

test("a page the role may not see answers 404 with the not-found page, and one it may see 200", async () => {
  const guest = await signedInAs("guest");
  for (const page of [
    "api/audit",
    "api/audit/req_0000000000000000000000",
    "api/activity",
    "members",
    "webhooks",
    "webhooks/whe_demo_acme_books",
    "log-streams",
    "sso",
    "alerts",
    "notifications",
  ]) {
    await expectNotFound(guest, `/acme/settings/${page}`);
  }
  await expectShown(guest, "/acme/settings/api");
  await expectShown(guest, "/acme/settings/api/keys/key_demo_acme_legacy");

  const member = await signedInAs("member");
  await expectNotFound(member, "/acme/settings/webhooks");
  await expectNotFound(member, "/acme/settings/log-streams");
  await expectNotFound(member, "/acme/settings/sso");
  await expectShown(member, "/acme/settings/members");
  await expectShown(member, "/acme/settings/alerts");
  await expectShown(member, "/acme/settings/notifications");
  await Promise.all([guest.dispose(), member.dispose()]);
});

test("an unknown key, endpoint or request id, and an organization the user is not in, answer 404 with the not-found page", async () => {
  const owner = await signedInAs("owner");
  await expectNotFound(owner, "/acme/settings/api/keys/key_doesnotexist");
  await expectNotFound(owner, "/acme/settings/api/audit/req_0000000000000000000000");
  await expectNotFound(owner, "/acme/settings/api/audit/not-a-request-id");
  await expectNotFound(owner, "/acme/settings/api/keys/not-a-key-id");
  await expectNotFound(owner, "/acme/settings/webhooks/whe_doesnotexist");
  await expectNotFound(owner, "/acme/settings/webhooks/not-an-endpoint-id");
  await expectNotFound(owner, "/globex/settings/api");
  await expectNotFound(owner, "/globex/settings/members");
  await expectNotFound(owner, "/no-such-organization/settings/api");
  await expectShown(owner, "/acme/settings/webhooks/whe_demo_acme_books");
  await expectShown(owner, "/acme/settings/members");
  await expectShown(owner, "/acme/settings/api/audit");
  await expectShown(owner, "/acme/settings/sso");
  await expectShown(owner, "/acme/settings/log-streams");
  await owner.dispose();
});
