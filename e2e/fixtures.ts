import { test as base, expect, type Page } from "@playwright/test";
import { DEMO_ACCOUNTS } from "../seed/accounts";
import { serverOrigin, workerServer } from "./servers";

export { DEMO_PASSWORD } from "../seed/accounts";
/** Every demo sign-in of the README (the seed's), with the organization each lands in. */
export const USERS = DEMO_ACCOUNTS;
export type DemoRole = keyof typeof USERS;

/** A phone-width screen (SPEC §5: every page works on one). */
export const PHONE = { width: 390, height: 844 };

/** A role's signed-in browser state on a server (auth.setup.ts signs every role in on every server). */
export const storageStateOf = (role: DemoRole, server = workerServer()) => `e2e/.auth/${server}/${role}.json`;

/** Saves a full-page screenshot to test-results/screens/<name>.png, to be looked at. */
export async function screenshot(page: Page, name: string) {
  await page.screenshot({ path: `test-results/screens/${name}.png`, fullPage: true });
}

/**
 * The flows .ci/run also drives on PostgreSQL (`--grep @postgres`): those whose path through the
 * server differs with the database client: exports streamed by COPY, webhook deliveries through
 * pg-boss, session rows, keys admitted and refused by the gateway's statement, sign-up's transaction.
 */
export const POSTGRES = { tag: "@postgres" };

/** Pages and requests go to this worker's own server. */
export const test = base.extend({
  baseURL: async ({}, provide) => provide(serverOrigin(workerServer())),
});
export { expect };
