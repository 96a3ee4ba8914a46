import { test as base, expect, type Page } from "@playwright/test";
import { DEMO_ACCOUNTS } from "../db/seed-accounts";

export { DEMO_PASSWORD } from "../db/seed-accounts";
/** Every demo sign-in of the README (the seed's), with the organization each lands in. */
export const USERS = DEMO_ACCOUNTS;
export type DemoRole = keyof typeof USERS;

/** A phone-width screen (SPEC §5: every page works on one). */
export const PHONE = { width: 390, height: 844 };

export const storageStateOf = (role: DemoRole) => `e2e/.auth/${role}.json`;

/** Saves a full-page screenshot to test-results/screens/<name>.png, to be looked at. */
export async function screenshot(page: Page, name: string) {
  await page.screenshot({ path: `test-results/screens/${name}.png`, fullPage: true });
}

export const test = base;
export { expect };
