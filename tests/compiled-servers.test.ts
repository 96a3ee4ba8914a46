import { spawn } from "node:child_process";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import os from "node:os";
import { afterAll, describe, expect, it } from "vitest";
import { createOrg, insertKey } from "./helpers/factories";
import { serverArguments, startServerProcess, workerPids, type ServerProcess } from "./helpers/server-process";
import { databaseUrl, onServer } from "./setup/database-server";

// What `npm run start:api` runs, and what tests/helpers/server-process.ts starts for every test: the
// output of scripts/build.mjs under plain node. The API alone needs PostgreSQL.
describe.skipIf(!process.env.DATABASE_URL)("the compiled API server", () => {
  let server: ServerProcess | undefined;
  afterAll(() => server?.stop());

  it("runs dist/ in the primary and in every worker, with no TypeScript loader", async () => {
    server = await startServerProcess("api-server.ts", { WEB_CONCURRENCY: "2" });
    const processes = [server.child.pid!, ...workerPids(server.child.pid!)];
    expect(processes).toHaveLength(3);
    for (const pid of processes) {
      const argv = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
      expect(argv.some((arg) => arg.endsWith("/dist/api-server.js"))).toBe(true);
      expect(argv.filter((arg) => /tsx|--import|--loader/.test(arg))).toEqual([]);
    }
  });

  it("renders a PDF in its worker thread, whose file it loads by path from dist/", async () => {
    server ??= await startServerProcess("api-server.ts");
    const { value } = await insertKey((await createOrg("pro")).id);
    const call = (path: string, json: unknown) =>
      fetch(`${server!.base}${path}`, { method: "POST", headers: { "X-API-Key": value, "Content-Type": "application/json" }, body: JSON.stringify(json) });
    const customer = (await (await call("/v1/customers", { name: "Compiled Ltd", email: "ap@example.test", currency: "EUR" })).json()) as { id: string };
    const invoice = (await (
      await call("/v1/invoices", { customer: customer.id, lines: [{ description: "Build", quantity: 1, unit_amount: 1000 }] })
    ).json()) as { id: string };
    const pdf = await call("/v1/pdf/generate", { invoice: invoice.id });
    expect(pdf.status).toBe(200);
    expect(
      Buffer.from(await pdf.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe("%PDF-");
  });

  it("migrates a new database from its own copy of the migrations, started from any directory", async () => {
    const database = `compiled_${Date.now()}_${process.pid}`;
    await onServer(process.env.DATABASE_URL!, `create database "${database}"`);
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATABASE_URL: databaseUrl(process.env.DATABASE_URL!, database),
      WEB_CONCURRENCY: "1",
      API_PORT: "0",
      HOSTNAME_BIND: "127.0.0.1",
      NODE_ENV: "production",
    };
    const child = spawn(process.execPath, serverArguments("api-server.ts"), { cwd: os.tmpdir(), env, stdio: ["ignore", "pipe", "pipe"] });
    try {
      let output = "";
      child.stderr.on("data", (chunk: Buffer) => (output += chunk));
      const started = new Promise<string>((resolve) =>
        child.stdout.on("data", (chunk: Buffer) => {
          output += chunk;
          if (output.includes("ready")) resolve(output);
        }),
      );
      const exited = once(child, "exit").then(([code]) => `exited with ${code}: ${output}`);
      expect(await Promise.race([started, exited])).toContain("Invoicing API ready");
    } finally {
      if (child.exitCode === null) {
        child.kill("SIGTERM");
        await once(child, "exit");
      }
      await onServer(process.env.DATABASE_URL!, `drop database if exists "${database}" with (force)`);
    }
  }, 60_000);
});
