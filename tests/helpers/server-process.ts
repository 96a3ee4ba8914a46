import { execFileSync, spawn, spawnSync, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { existsSync, readFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";

export interface ServerProcess {
  child: ChildProcess;
  base: string;
  /** SIGTERM, resolved once the process has exited. */
  stop: () => Promise<void>;
  /** Everything it has printed so far, standard output and error. */
  output: () => string;
}

const REPOSITORY = path.resolve(import.meta.dirname, "../..");

async function freePort(): Promise<number> {
  const server = net.createServer().listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as net.AddressInfo;
  server.close();
  return port;
}

/**
 * Under vitest a server gets a small pool: a test file runs up to five server processes (two
 * servers of two workers and a replacement, tests/multi-process.test.ts) beside three test
 * processes on one PostgreSQL of `max_connections` 100, and with the test process's own pool
 * (tests/setup/database.ts) CI ran out of connections. Benches keep the production default.
 */
const TEST_SERVER_POOL = process.env.VITEST ? { DATABASE_POOL_SIZE: "4" } : {};

/** The servers scripts/build.mjs compiles; other scripts (a bench's own server) run from the sources. */
const COMPILED_SERVERS = new Set(["server.ts", "api-server.ts"]);
const builtCheckouts = new Set<string>();

/**
 * How a server runs: "compiled", as `npm start` runs it (its output in dist/, built first when not
 * current, under plain node), so what the tests start is what production runs; "tsx", from the
 * sources through the development loader (the memory bench's other side).
 */
export type ServerRuntime = "compiled" | "tsx";

/**
 * Node's arguments for `script` of `checkout`. A checkout from before the servers were compiled
 * (a bench's baseline, BENCH_BASELINE_DIR) has no scripts/build.mjs and runs from its sources.
 */
export function serverArguments(script: string, checkout = REPOSITORY, runtime: ServerRuntime = "compiled"): string[] {
  const builder = path.join(checkout, "scripts", "build.mjs");
  if (runtime === "tsx" || !COMPILED_SERVERS.has(script) || !existsSync(builder)) return ["--conditions=react-server", "--import", "tsx", script];
  if (!builtCheckouts.has(checkout)) {
    // A no-op once tests/setup/compiled-servers.ts has built them for the run.
    execFileSync(process.execPath, [builder, "--servers", "--if-stale"], { cwd: checkout, stdio: "pipe" });
    builtCheckouts.add(checkout);
  }
  return ["--enable-source-maps", path.join(checkout, "dist", script.replace(/\.ts$/, ".js"))];
}

/**
 * A server script of this repository (`api-server.ts` by default, or `server.ts` over a
 * production build), or of another checkout of it at `checkout`, in its own Node process on a
 * free localhost port, run as `npm run start:api` runs it (on one worker unless `env` sets
 * WEB_CONCURRENCY), with Node's `nodeFlags` (a profiler's); resolves once it prints "ready".
 */
export async function startServerProcess(
  script = "api-server.ts",
  env: Record<string, string> = {},
  checkout = REPOSITORY,
  nodeFlags: string[] = [],
  runtime: ServerRuntime = "compiled",
): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [...nodeFlags, ...serverArguments(script, checkout, runtime)], {
    cwd: checkout,
    // One worker unless the caller asks for more (servers/worker-cluster.ts): a test or bench says what it runs.
    env: {
      ...process.env,
      WEB_CONCURRENCY: "1",
      ...TEST_SERVER_POOL,
      ...env,
      API_PORT: String(port),
      PORT: String(port),
      HOSTNAME_BIND: "127.0.0.1",
      NODE_ENV: "production",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stderr!.on("data", (chunk) => (output += chunk));
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk;
      if (output.includes("ready")) resolve();
    });
    child.once("exit", (code) => reject(new Error(`${script} exited with ${code}: ${output}`)));
  });
  return {
    child,
    base: `http://127.0.0.1:${port}`,
    output: () => output,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGTERM");
      await once(child, "exit");
    },
  };
}

/** Whether `npx next build` has made the production build `server.ts` serves. */
export function productionBuildExists(): boolean {
  return existsSync(path.join(REPOSITORY, ".next", "BUILD_ID"));
}

/** The node processes `parent` started: not tsx's esbuild service, which a cold transform cache starts there too. */
function nodeChildren(parent: number): number[] {
  const found = spawnSync("pgrep", ["-x", "-P", String(parent), "node"], { encoding: "utf8" });
  // pgrep exits 1 when nothing matched.
  if (found.status === 1) return [];
  if (found.status !== 0) throw new Error(`pgrep failed (${found.status ?? found.signal}): ${found.stderr}`, { cause: found.error });
  return found.stdout.trim().split("\n").map(Number);
}

/** Whether process `pid` runs the log streams' delivery (servers/log-stream-delivery.ts forks it from every server process on PostgreSQL). */
const delivers = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("log-stream-delivery-process");

/**
 * The pids of the worker processes of the server with pid `primary` (servers/worker-cluster.ts forks
 * them), not its log streams' delivery process: a server on one process (one worker, no cluster) has none.
 */
export function workerPids(primary: number): number[] {
  return nodeChildren(primary).filter((pid) => !delivers(pid));
}

/** The log streams' delivery process of a server process on PostgreSQL, once it has forked it. */
export function deliveryPids(server: number): number[] {
  return nodeChildren(server).filter(delivers);
}
