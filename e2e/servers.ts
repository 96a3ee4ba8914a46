/**
 * The e2e run starts one server per Playwright worker, each on a database of its own, and worker N
 * (its parallel index) drives server N only: specs running side by side never see each other's
 * keys, members or sessions, and the specs of one worker run one at a time as before.
 */
export const E2E_WORKERS = Math.max(1, Number(process.env.E2E_WORKERS ?? 2));

const FIRST_PORT = Number(process.env.E2E_PORT ?? 3100);

export const serverPort = (server: number) => FIRST_PORT + server;
export const serverOrigin = (server: number) => `http://localhost:${serverPort(server)}`;
/** Where server N's session clock listens (e2e/session-clock.mjs): a thousand ports above its own. */
export const sessionClockPort = (server: number) => serverPort(server) + 1000;

/** The server of the worker this code runs in (Playwright sets TEST_PARALLEL_INDEX per worker). */
export function workerServer(): number {
  const server = Number(process.env.TEST_PARALLEL_INDEX ?? 0);
  if (server >= E2E_WORKERS) {
    throw new Error(`Worker ${server} has no server: run with at most E2E_WORKERS=${E2E_WORKERS} workers, or raise E2E_WORKERS.`);
  }
  return server;
}
