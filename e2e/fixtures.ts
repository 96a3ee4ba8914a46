import { test as base, expect, type Page } from "@playwright/test";

export const DEMO_PASSWORD = "demo-password";
/** Every demo sign-in of the README, with the organization each lands in. */
export const USERS = {
  owner: { email: "owner@acme.test", name: "Olivia Owens", lands: "acme" },
  admin: { email: "admin@acme.test", name: "Adam Alvarez", lands: "acme" },
  member: { email: "member@acme.test", name: "Mia Moreau", lands: "acme" },
  guest: { email: "guest@acme.test", name: "Gus Grant", lands: "acme" },
  trialOwner: { email: "dana@globex.test", name: "Dana Scully", lands: "globex" },
  multi: { email: "alex@studio.test", name: "Alex Kim", lands: "globex" },
} as const;
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
