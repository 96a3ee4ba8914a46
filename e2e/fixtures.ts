import AxeBuilder from "@axe-core/playwright";
import { test as base, expect, type BrowserContext, type Locator, type Page } from "@playwright/test";
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from "../seed/accounts";
import { serverOrigin, sessionClockPort, workerServer } from "./servers";

export { DEMO_PASSWORD } from "../seed/accounts";
/** Every demo sign-in of the README (the seed's), with the organization each lands in. */
export const USERS = DEMO_ACCOUNTS;
export type DemoRole = keyof typeof USERS;

/** A phone-width screen (every page works on one). */
export const PHONE = { width: 390, height: 844 };

/** A role's signed-in browser state on a server (auth.setup.ts signs every role in on every server). */
export const storageStateOf = (role: DemoRole, server = workerServer()) => `e2e/.auth/${server}/${role}.json`;

/**
 * Saves a screenshot to test-results/screens/<name>.png, to be looked at: the full page, or what the
 * window shows where the page is too tall for one image to be read (the API reference, ~33,000 px).
 */
export async function screenshot(page: Page, name: string, { fullPage = true } = {}) {
  await page.screenshot({ path: `test-results/screens/${name}.png`, fullPage });
}

/**
 * axe over the page, asked for its violations only and run in the page itself: these pages have no
 * frames, and the default mode (results gathered node by node, then merged in a second blank page)
 * spent 13 of 19 s on the API reference's 12,600 elements; this way 7 s, the same findings.
 */
export function axe(page: Page, options: Parameters<AxeBuilder["options"]>[0] = {}): AxeBuilder {
  return new AxeBuilder({ page }).setLegacyMode().options({ ...options, resultTypes: ["violations"] });
}

/**
 * The flows .ci/run also drives on PostgreSQL (`--grep @postgres`): those whose path through the
 * server differs with the database client: exports streamed by COPY, webhook deliveries through
 * pg-boss, session rows, keys admitted and refused by the gateway's statement, sign-up's transaction,
 * and the Host a server action's redirect carries to whichever dashboard worker renders its page.
 */
export const POSTGRES = { tag: "@postgres" };

/** Sudo mode's question (docs/security.md#sudo-mode): the dialog asking for the password again before a sensitive change. */
export const sudoDialog = (page: Page): Locator => page.getByRole("dialog", { name: "Confirm it's you" });

/** The e2e servers' sudo window (e2e/start-server.sh), and a second to be past it. */
export const SUDO_MODE_SECONDS = 30 + 1;

/** Moves back the sudo clock of the sessions `email` signed in since `since` on this worker's server, as if that long had passed (e2e/session-clock.mjs). */
export async function ageSessions(email: string, since: number, seconds: number): Promise<number> {
  const response = await fetch(`http://127.0.0.1:${sessionClockPort(workerServer())}/`, { method: "POST", body: JSON.stringify({ email, since, seconds }) });
  expect(response.status, await response.clone().text()).toBe(200);
  return ((await response.json()) as { aged: number }).aged;
}

/**
 * Answers sudo mode's question with the demo password whenever it shows: the e2e servers ask it
 * 30 seconds after the last sign-in (e2e/start-server.sh), so any sensitive change of a spec may
 * meet it, as a person who stays signed in does. e2e/sudo-mode.spec.ts drives it by hand.
 */
async function answerSudoMode(page: Page, password = DEMO_PASSWORD) {
  await page.addLocatorHandler(sudoDialog(page), async (dialog) => {
    await dialog.getByLabel("Password").fill(password);
    await dialog.getByRole("button", { name: "Confirm" }).click();
  });
}

const answering = new WeakSet<BrowserContext>();
const answerers = new WeakMap<Page, Promise<void>>();

function answerSudoModeIn(context: BrowserContext): BrowserContext {
  if (!answering.has(context)) context.on("page", (page) => answerers.set(page, answerSudoMode(page)));
  answering.add(context);
  return context;
}

/** Leaves sudo mode's question on `page` to the spec, which answers it by hand. */
export async function answerSudoModeMyself(page: Page) {
  await answerers.get(page);
  await page.removeLocatorHandler(sudoDialog(page));
}

/** Answers sudo mode's question on `page` with `password`: the page of an account a spec signed up with a password of its own. */
export async function answerSudoModeWith(page: Page, password: string) {
  await answerSudoModeMyself(page);
  await answerSudoMode(page, password);
}

/**
 * Pages and requests go to this worker's own server, and every page, of the test's own context or
 * of one a spec opens with browser.newContext, answers sudo mode's question.
 */
export const test = base.extend<object, object>({
  baseURL: async ({}, provide) => provide(serverOrigin(workerServer())),
  context: async ({ context }, provide) => provide(answerSudoModeIn(context)),
  browser: [
    async ({ browser }, provide) => {
      const newContext = browser.newContext.bind(browser);
      browser.newContext = async (options) => answerSudoModeIn(await newContext(options));
      await provide(browser);
    },
    { scope: "worker" },
  ],
});
export { expect };
