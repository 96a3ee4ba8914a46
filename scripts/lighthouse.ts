/**
 * npm run lighthouse: Lighthouse 12's mobile preset (simulated slow 4G, 4× CPU slowdown) over the
 * dashboard's pages, against the production build on a fresh seeded database (PGlite in a
 * temporary folder, or a fresh database on DATABASE_URL's server), signed in as the demo owner.
 * Prints each page's scores, blocking time and the JavaScript it transfers. A benchmark, not a
 * test: run it on a quiet machine (docs/performance.md#page-weight-and-lighthouse).
 *
 *   npm run lighthouse [-- --runs=3] [-- --only=keys,usage] [-- --save=DIR] [-- --cpu-slowdown=6]
 *
 * --save writes each run's full Lighthouse report (JSON) to DIR, to see which scripts block.
 * --cpu-slowdown replaces the preset's 4×: on a faster day, the slowdown that emulates the same phone
 * as 4× did on a slower one (docs/performance.md#page-weight-and-lighthouse).
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import postgres from "postgres";
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from "@/seed/accounts";

const PORT = Number(process.env.LIGHTHOUSE_PORT ?? 3390);
const BASE = `http://localhost:${PORT}`;
const argument = (name: string) => process.argv.find((arg) => arg.startsWith(`--${name}=`))?.split("=")[1];
const RUNS = Math.max(1, Number(argument("runs") ?? 1));
const ONLY = argument("only")?.split(",");
const SAVE_DIR = argument("save");
const CPU_SLOWDOWN = argument("cpu-slowdown") === undefined ? undefined : Number(argument("cpu-slowdown"));
if (CPU_SLOWDOWN !== undefined && !(CPU_SLOWDOWN >= 1)) throw new Error(`--cpu-slowdown takes a number of 1 or more, not ${argument("cpu-slowdown")}`);
const owner = DEMO_ACCOUNTS.owner;

/** The pages measured: the sign-in page signed out, every other one as the owner of the demo organization. */
const PAGES: { name: string; path: string | ((keyId: string) => string); signedIn: boolean }[] = [
  { name: "sign-in", path: "/signin", signedIn: false },
  { name: "keys", path: `/${owner.lands}/settings/api`, signedIn: true },
  { name: "key page", path: (keyId) => `/${owner.lands}/settings/api/keys/${keyId}`, signedIn: true },
  { name: "audit log", path: `/${owner.lands}/settings/api/audit`, signedIn: true },
  { name: "usage", path: `/${owner.lands}/settings/api/usage`, signedIn: true },
  { name: "activity", path: `/${owner.lands}/settings/api/activity`, signedIn: true },
  { name: "members", path: `/${owner.lands}/settings/members`, signedIn: true },
  { name: "webhooks", path: `/${owner.lands}/settings/webhooks`, signedIn: true },
  { name: "plan", path: `/${owner.lands}/settings/plan`, signedIn: true },
  { name: "security", path: "/settings/security", signedIn: true },
];

type Database = { env: Record<string, string>; drop: () => Promise<void> };

async function freshDatabase(): Promise<Database> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    const dir = mkdtempSync(path.join(tmpdir(), "lighthouse-"));
    return { env: { PGLITE_DIR: path.join(dir, "pglite") }, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const name = `lighthouse_${process.pid}`;
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${name}"`);
  return {
    env: { DATABASE_URL: url.toString(), DATABASE_POOL_SIZE: "5" },
    drop: async () => {
      await admin.unsafe(`drop database if exists "${name}" with (force)`);
      await admin.end();
    },
  };
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv): void {
  const result = spawnSync(command, args, { env, stdio: "inherit" });
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} exited with ${result.status}`);
}

async function startServer(env: NodeJS.ProcessEnv): Promise<ChildProcess> {
  const server = spawn(process.execPath, ["--enable-source-maps", "dist/server.js"], { env, stdio: ["ignore", "ignore", "inherit"] });
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`The server exited with ${server.exitCode}`);
    const ready = await fetch(`${BASE}/signin`).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) return server;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`The server did not answer ${BASE}/signin within 60 s`);
}

/** The owner's session cookie, from next-auth's credentials endpoint (what the sign-in form posts to). */
async function signIn(): Promise<string> {
  const csrf = await fetch(`${BASE}/api/auth/csrf`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  // By name, the last one set winning (the answer may set the CSRF cookie twice).
  const cookies = new Map(csrf.headers.getSetCookie().map((cookie) => cookie.split(";")[0]!.split("=", 2) as [string, string]));
  const signedIn = await fetch(`${BASE}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join("; "), origin: BASE },
    body: new URLSearchParams({ email: owner.email, password: DEMO_PASSWORD, csrfToken, callbackUrl: `/${owner.lands}/settings/api` }),
  });
  const session = signedIn.headers.getSetCookie().find((cookie) => cookie.startsWith("authjs.session-token="));
  if (!session) throw new Error(`Signing in as ${owner.email} set no session cookie (status ${signedIn.status})`);
  return session.split(";")[0]!;
}

/** The id of the first key on the demo organization's key list, for the key page. */
async function firstKeyId(cookie: string): Promise<string> {
  const html = await (await fetch(`${BASE}/${owner.lands}/settings/api`, { headers: { cookie } })).text();
  const match = html.match(new RegExp(`/${owner.lands}/settings/api/keys/([A-Za-z0-9_]+)`));
  if (!match) throw new Error("The key list links to no key page");
  return match[1]!;
}

type Measure = {
  cpuIndex: number;
  score: number;
  accessibility: number;
  bestPractices: number;
  tbt: number;
  tti: number;
  lcp: number;
  scriptKiB: number;
  unusedKiB: number;
};

/** One run in a browser of its own: a signed-out page's cookies never mix with the session's header. */
async function measure(url: string, cookie: string | null, reportName: string): Promise<Measure> {
  const chrome = await chromeLauncher.launch({ chromePath, chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu"] });
  try {
    return await measureIn(chrome.port, url, cookie, reportName);
  } finally {
    chrome.kill();
  }
}

async function measureIn(port: number, url: string, cookie: string | null, reportName: string): Promise<Measure> {
  const result = await lighthouse(url, {
    port,
    output: "json",
    logLevel: "error",
    onlyCategories: ["performance", "accessibility", "best-practices"],
    extraHeaders: cookie ? { Cookie: cookie } : undefined,
    ...(CPU_SLOWDOWN === undefined ? {} : { throttling: { cpuSlowdownMultiplier: CPU_SLOWDOWN } }),
  });
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
  const { categories, audits } = result.lhr;
  if (result.lhr.runtimeError) throw new Error(`${url}: ${result.lhr.runtimeError.message}`);
  if (result.lhr.finalDisplayedUrl !== url) throw new Error(`${url} ended at ${result.lhr.finalDisplayedUrl}`);
  if (SAVE_DIR) writeFileSync(path.join(SAVE_DIR, `${reportName}.json`), JSON.stringify(result.lhr));
  const summary = (audits["resource-summary"]?.details as { items?: { resourceType: string; transferSize: number }[] } | undefined)?.items ?? [];
  const unused = (audits["unused-javascript"]?.details as { overallSavingsBytes?: number } | undefined)?.overallSavingsBytes ?? 0;
  return {
    cpuIndex: result.lhr.environment.benchmarkIndex,
    score: Math.round((categories.performance?.score ?? 0) * 100),
    accessibility: Math.round((categories.accessibility?.score ?? 0) * 100),
    bestPractices: Math.round((categories["best-practices"]?.score ?? 0) * 100),
    tbt: audits["total-blocking-time"]?.numericValue ?? NaN,
    tti: audits.interactive?.numericValue ?? NaN,
    lcp: audits["largest-contentful-paint"]?.numericValue ?? NaN,
    scriptKiB: (summary.find((item) => item.resourceType === "script")?.transferSize ?? 0) / 1024,
    unusedKiB: unused / 1024,
  };
}

const medianOf = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;

function printTable(rows: { name: string; runs: Measure[] }[]): void {
  const header = ["page", "score", "TBT", "TTI", "LCP", "JS transferred", "unused JS", "a11y", "best pr.", "CPU index"];
  const lines = rows.map(({ name, runs }) => {
    const m = (pick: (run: Measure) => number) => medianOf(runs.map(pick));
    return [
      name,
      String(m((r) => r.score)),
      `${Math.round(m((r) => r.tbt))} ms`,
      `${(m((r) => r.tti) / 1000).toFixed(1)} s`,
      `${(m((r) => r.lcp) / 1000).toFixed(1)} s`,
      `${m((r) => r.scriptKiB).toFixed(0)} KiB`,
      `${m((r) => r.unusedKiB).toFixed(0)} KiB`,
      String(m((r) => r.accessibility)),
      String(m((r) => r.bestPractices)),
      String(Math.round(m((r) => r.cpuIndex))),
    ];
  });
  const widths = header.map((_, column) => Math.max(...[header, ...lines].map((line) => line[column]!.length)));
  const format = (line: string[]) => `| ${line.map((cell, column) => cell.padEnd(widths[column]!)).join(" | ")} |`;
  console.log([format(header), `|${widths.map((width) => "-".repeat(width + 2)).join("|")}|`, ...lines.map(format)].join("\n"));
  const preset = CPU_SLOWDOWN === undefined ? "mobile preset" : `mobile preset but for a ${CPU_SLOWDOWN}× CPU slowdown`;
  console.log(`\nMedians of ${RUNS} run${RUNS === 1 ? "" : "s"} per page (Lighthouse ${lighthouseVersion()}, ${preset}).`);
  // The 4× slowdown is applied to whatever this machine's CPU does at the moment: blocking time scales inversely with it.
  console.log("CPU index: Lighthouse's benchmarkIndex of the machine during the runs (higher is faster).");
}

function lighthouseVersion(): string {
  return (spawnSync(process.execPath, ["-p", "require('lighthouse/package.json').version"], { encoding: "utf8" }).stdout ?? "").trim();
}

const chromePath = process.env.CHROMIUM_PATH ?? ["/usr/bin/chromium", "/usr/bin/chromium-headless-shell"].find((file) => existsSync(file));
const database = await freshDatabase();
const env: NodeJS.ProcessEnv = {
  ...process.env,
  ...database.env,
  NODE_ENV: "production",
  PORT: String(PORT),
  NEXT_TELEMETRY_DISABLED: "1",
  AUTH_SECRET: process.env.AUTH_SECRET ?? "lighthouse-secret-not-for-production-0123456789",
};
let server: ChildProcess | undefined;
if (SAVE_DIR) mkdirSync(SAVE_DIR, { recursive: true });
try {
  run(process.execPath, ["scripts/build.mjs", "--if-stale"], env);
  run(process.execPath, ["--import", "tsx", "scripts/db-seed.ts"], env);
  server = await startServer(env);
  const cookie = await signIn();
  const keyId = await firstKeyId(cookie);
  const rows: { name: string; runs: Measure[] }[] = [];
  for (const page of PAGES.filter((page) => !ONLY || ONLY.includes(page.name))) {
    const url = BASE + (typeof page.path === "function" ? page.path(keyId) : page.path);
    const runs: Measure[] = [];
    for (let round = 0; round < RUNS; round++) runs.push(await measure(url, page.signedIn ? cookie : null, `${page.name.replace(/ /g, "-")}-${round + 1}`));
    rows.push({ name: page.name, runs });
    process.stderr.write(`measured ${page.name}\n`);
  }
  printTable(rows);
} finally {
  server?.kill("SIGTERM");
  await database.drop();
}
