/**
 * Where the gateway's CPU goes, against the bare route and through the one-port server (docs/operations.md#every-core):
 * each under the same load with `--cpu-prof`, then its top self-time frames and self time by package.
 * PostgreSQL only. `npm run bench -- --only=profile` (BENCH_PROFILE_DIR keeps the .cpuprofile files).
 */
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { productionBuildExists, startServerProcess } from "@/tests/helpers/server-process";
import { benchOrganization, load } from "./gateway-ratio";
import { count, printTable } from "./lib";
import { ONE_PORT_ENV } from "./server-topologies";

const TOP = 25;

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  samples: number[];
  timeDeltas: number[];
}

/** Where a script lives, shortly: a package, a file of this repository, or Node's own. */
function origin(url: string): string {
  if (!url) return "(native / V8)";
  if (url.startsWith("node:")) return "node:internal";
  const inModules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (inModules) return inModules[1]!;
  return url.replace(/^file:\/\//, "").replace(`${path.resolve(import.meta.dirname, "..")}/`, "");
}

function selfTimes(profile: CpuProfile): { frames: Map<string, number>; origins: Map<string, number>; totalUs: number } {
  const byId = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const frames = new Map<string, number>();
  const origins = new Map<string, number>();
  let totalUs = 0;
  profile.samples.forEach((id, i) => {
    const frame = byId.get(id)!;
    const us = profile.timeDeltas[i] ?? 0;
    if (frame.functionName === "(idle)" || frame.functionName === "(program)") return;
    totalUs += us;
    const key = `${frame.functionName || "(anonymous)"}  ${origin(frame.url)}:${frame.lineNumber + 1}`;
    frames.set(key, (frames.get(key) ?? 0) + us);
    origins.set(origin(frame.url), (origins.get(origin(frame.url)) ?? 0) + us);
  });
  return { frames, origins, totalUs };
}

async function profiled(script: string, env: Record<string, string>, keys: string[]): Promise<{ profile: CpuProfile; responses: number }> {
  const dir = process.env.BENCH_PROFILE_DIR ?? mkdtempSync(path.join(os.tmpdir(), "gateway-profile-"));
  const server = await startServerProcess(script, env, undefined, ["--cpu-prof", `--cpu-prof-dir=${dir}`]);
  await load(server.base, keys, 2);
  const round = await load(server.base, keys, 8);
  const before = new Set(readdirSync(dir));
  await server.stop();
  // CPU.<date>.<time>.<pid>.<thread>.<n>.cpuprofile: the main thread's is thread 0 (a loader thread
  // writes its own). A cluster writes one a process (server.ts on PostgreSQL: the primary, the front
  // worker and the dashboard worker): the one that served the load spent the most CPU.
  const profiles = readdirSync(dir)
    .filter((name) => name.endsWith(".cpuprofile") && !before.has(name) && name.split(".")[4] === "0")
    .map((name) => {
      const profile = JSON.parse(readFileSync(path.join(dir, name), "utf8")) as CpuProfile;
      return { profile, cpuUs: selfTimes(profile).totalUs };
    });
  const { profile } = profiles.reduce((busiest, candidate) => (candidate.cpuUs > busiest.cpuUs ? candidate : busiest));
  return { profile, responses: Math.round(round.requestsPerSecond * 8) };
}

function printProfile(label: string, { profile, responses }: { profile: CpuProfile; responses: number }): void {
  const { frames, origins, totalUs } = selfTimes(profile);
  const perRequest = (us: number) => (us / responses).toFixed(1);
  printTable(`## ${label}: self time by origin (${count(responses)} responses measured; µs per response, whole run incl. warm-up)`, [
    ["origin", "µs / response", "share"],
    ...[...origins]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 12)
      .map(([name, us]) => [name, perRequest(us), `${((us / totalUs) * 100).toFixed(1)} %`]),
  ]);
  printTable(`## ${label}: top ${TOP} self-time frames`, [
    ["frame", "µs / response", "share"],
    ...[...frames]
      .sort((a, b) => b[1] - a[1])
      .slice(0, TOP)
      .map(([name, us]) => [name, perRequest(us), `${((us / totalUs) * 100).toFixed(1)} %`]),
  ]);
}

export async function benchProfileGateway(): Promise<void> {
  if (!process.env.DATABASE_URL) {
    console.log("\n## Gateway profile: skipped (set DATABASE_URL)");
    return;
  }
  const { org, values: keys } = await benchOrganization("Profile");
  printProfile("Gateway (api-server.ts)", await profiled("api-server.ts", {}, keys));
  printProfile("Bare route (bench/bare-handler-server.ts)", await profiled("bench/bare-handler-server.ts", { BENCH_ORG_ID: org.id }, keys));
  // The same gateway through the one-port server, whose front worker has no Next.js (the production build in .next).
  if (productionBuildExists()) {
    printProfile("Gateway through the one-port server (server.ts: its front worker)", await profiled("server.ts", ONE_PORT_ENV, keys));
  } else console.log("\n(one-port server not profiled: no production build; run `npx next build` first)");
}
