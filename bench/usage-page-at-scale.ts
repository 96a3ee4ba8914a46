import { getDb } from "@/db";
import { memberships, users } from "@/db/schema";
import { newId } from "@/core/ids";
import { hashPassword } from "@/lib/auth/password";
import { productionBuildExists, startServerProcess, type ServerProcess } from "@/tests/helpers/server-process";
import { median, ms, printTable, timeRepeated } from "./lib";
import { ONE_PORT_ENV } from "./server-topologies";

const PASSWORD = "bench-password-usage";
const REPEATS = 7;

/** The session cookies of a member signed in through next-auth's credentials endpoint, as the sign-in form ends there. */
async function signIn(base: string, email: string): Promise<string> {
  const csrf = await fetch(`${base}/api/auth/csrf`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  // A cookie set twice counts as the browser keeps it: the last one.
  const cookies = [
    ...new Map(
      csrf.headers
        .getSetCookie()
        .map((cookie) => cookie.split(";")[0]!)
        .map((pair) => [pair.split("=")[0], pair]),
    ).values(),
  ];
  const signedIn = await fetch(`${base}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookies.join("; "), origin: base },
    body: new URLSearchParams({ email, password: PASSWORD, csrfToken, callbackUrl: "/" }),
  });
  const session = signedIn.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0]!)
    .filter((cookie) => cookie.includes("session-token"));
  if (session.length === 0) throw new Error(`Signing in for the page bench failed: ${signedIn.status} to ${signedIn.headers.get("location")}`);
  return session.join("; ");
}

/**
 * The production server (`server.ts`, the build in .next) over this database, and the cookies of a
 * new member of `org` signed in to it; null, said under `what`, without a build.
 */
export async function productionServerAsMember(org: { id: string }, what: string): Promise<{ server: ServerProcess; cookie: string } | null> {
  if (!productionBuildExists()) {
    console.log(`\n${what}: skipped, no production build (run \`npx next build\` first).`);
    return null;
  }
  const userId = newId("usr");
  const email = `${userId.toLowerCase()}@bench.test`;
  await getDb()
    .insert(users)
    .values({ id: userId, name: "Bench Member", email, passwordHash: await hashPassword(PASSWORD) });
  await getDb().insert(memberships).values({ orgId: org.id, userId, role: "member" });
  const server = await startServerProcess("server.ts", { DATABASE_URL: process.env.DATABASE_URL!, ...ONE_PORT_ENV });
  try {
    return { server, cookie: await signIn(server.base, email) };
  } catch (error) {
    await server.stop();
    throw error;
  }
}

/**
 * The Usage page served by the production server (`server.ts`, the build in .next) over this
 * database, as a member opens it: for each window, the time to the first byte of the response
 * and to its last. Skipped without a build.
 */
export async function benchUsagePage(org: { id: string; slug: string }, ranges: readonly string[]): Promise<void> {
  const signedIn = await productionServerAsMember(org, "The Usage page over HTTP");
  if (!signedIn) return;
  const { server, cookie } = signedIn;
  try {
    const rows: string[][] = [];
    for (const range of ranges) {
      const url = `${server.base}/${org.slug}/settings/api/usage?range=${range}`;
      const firstBytes: number[] = [];
      let bytes = 0;
      const { samples } = await timeRepeated(
        async () => {
          const started = performance.now();
          const response = await fetch(url, { headers: { cookie } });
          firstBytes.push(performance.now() - started);
          if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
          bytes = (await response.arrayBuffer()).byteLength;
        },
        REPEATS,
        1,
      );
      const measured = firstBytes.slice(-REPEATS);
      rows.push([range, ms(median(measured)), ms(median(samples)), ms(Math.max(...samples)), `${Math.round(bytes / 1024)} KiB`]);
    }
    printTable(`The Usage page over HTTP as a member, ${REPEATS} times after a warm-up (budget: first byte ≤ 150 ms)`, [
      ["window", "first byte, median", "whole page, median", "whole page, slowest", "size"],
      ...rows,
    ]);
  } finally {
    await server.stop();
  }
}
