import { expect, storageStateOf, test } from "./fixtures";

test.use({ storageState: storageStateOf("owner") });

// The settings nav's links prefetch their pages on intent, not when drawn: drawn, they sent some
// twenty requests with every page's own loading (docs/decisions/0063-shared-page-weight.md).
test("a settings page prefetches a nav link's page when the pointer comes to it, not before", async ({ page }) => {
  const fetched: string[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.searchParams.has("_rsc")) fetched.push(url.pathname);
  });
  await page.goto("/acme/settings/plan", { waitUntil: "networkidle" });
  const nav = page.getByRole("navigation", { name: "Settings" });
  expect(fetched.filter((path) => path.startsWith("/acme/settings/") && path !== "/acme/settings/api")).toEqual([]);

  await nav.getByRole("link", { name: "Members" }).hover();
  await expect.poll(() => fetched.includes("/acme/settings/members")).toBe(true);
  await nav.getByRole("link", { name: "Members" }).click();
  await expect(page.getByRole("heading", { name: "Members", level: 1 })).toBeVisible();
});
