import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { main } from "@/packages/cli/src/main";
import { startApiServer } from "./helpers/api-server";
import { createOrg, insertKey } from "./helpers/factories";

const api = startApiServer();
const BIN = path.resolve(import.meta.dirname, "../packages/cli/bin/invoicing.js");

type Run = { code: number; stdout: string; stderr: string };

/**
 * The command line's main() in this process, the key and the address as its environment would
 * give them (a process of its own costs a quarter of a second; `spawned` below runs the real one).
 */
async function invoicing(args: string[], env: Record<string, string | undefined> = {}): Promise<Run> {
  const output = { stdout: "", stderr: "" };
  const collector = (name: keyof typeof output) =>
    new Writable({
      write(chunk: Buffer | string, _encoding, done) {
        output[name] += chunk.toString();
        done();
      },
    });
  const saved = { key: process.env.INVOICING_API_KEY, base: process.env.INVOICING_BASE_URL };
  setEnv("INVOICING_API_KEY", env.INVOICING_API_KEY);
  setEnv("INVOICING_BASE_URL", "INVOICING_BASE_URL" in env ? env.INVOICING_BASE_URL : api.base);
  try {
    const code = await main(args, { stdout: collector("stdout"), stderr: collector("stderr") });
    return { code, ...output };
  } finally {
    setEnv("INVOICING_API_KEY", saved.key);
    setEnv("INVOICING_BASE_URL", saved.base);
  }
}

function setEnv(name: string, value: string | undefined): void {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}

/** Runs the command line as `npx invoicing …` runs it: its compiled package, a process of its own. */
function spawned(args: string[], env: Record<string, string | undefined> = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      { env: { NODE_ENV: "test", PATH: process.env.PATH, INVOICING_BASE_URL: api.base, ...env }, encoding: "utf8", timeout: 20_000 },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

async function keyOf(options: Parameters<typeof insertKey>[1] = {}) {
  const org = await createOrg("pro");
  return (await insertKey(org.id, options)).value;
}

describe("the invoicing command line", () => {
  it("takes an invoice from draft to a paid PDF, with JSON for scripts and tables for people", async () => {
    const env = { INVOICING_API_KEY: await keyOf() };
    const run = async (...args: string[]) => {
      const result = await invoicing(args, env);
      expect(result.stderr, args.join(" ")).not.toMatch(/Error/);
      expect(result.code, `${args.join(" ")}: ${result.stderr}`).toBe(0);
      return result;
    };
    const customer = JSON.parse((await run("customers", "create", "name=Jane Doe GmbH", "currency=EUR", "email=jane@example.com", "--json")).stdout);
    expect(customer).toMatchObject({ object: "customer", name: "Jane Doe GmbH", currency: "EUR" });
    const draft = JSON.parse(
      (
        await run(
          "invoices",
          "create",
          `customer=${customer.id}`,
          "lines[0].description=Consulting",
          "lines[0].quantity:=3",
          "lines[0].unit_amount:=10000",
          "lines[0].tax_rate:=19",
          "--json",
        )
      ).stdout,
    );
    expect(draft).toMatchObject({ status: "draft", subtotal: 30000, tax: 5700, total: 35700 });

    const finalized = await run("invoices", "finalize", draft.id);
    expect(finalized.stdout).toMatch(/^status\s+open$/m);
    expect(finalized.stdout).toMatch(/^total\s+€357\.00$/m);
    expect(finalized.stdout).toMatch(/^number\s+INV-\d{6}$/m);
    expect(finalized.stdout).toMatch(/^lines\nID\s+OBJECT|^lines\n.*DESCRIPTION/m);
    expect(JSON.parse((await run("invoices", "pay", draft.id, "--json")).stdout).status).toBe("paid");

    const out = path.join(mkdtempSync(path.join(tmpdir(), "invoicing-cli-")), "invoice.pdf");
    const pdf = await spawned(["invoices", "pdf", draft.id, "--out", out], env);
    expect(pdf.code).toBe(0);
    expect(pdf.stderr).toMatch(/^Wrote .*invoice\.pdf \(\d+\.\d KiB\)\./);
    expect(readFileSync(out).subarray(0, 5).toString()).toBe("%PDF-");

    const listed = await run("invoices", "list", "status=paid");
    expect(listed.stdout.split("\n")[0]).toMatch(/^ID\s+NUMBER\s+STATUS\s+CUSTOMER\s+TOTAL\s+DUE_DATE$/);
    expect(listed.stdout).toContain(draft.id);
    const page = JSON.parse((await run("customers", "list", "--json", "--all")).stdout);
    expect(page).toMatchObject({ object: "list", has_more: false, data: [{ id: customer.id }] });
    expect((await run("analytics")).stdout).toMatch(/^livemode\s+true$/m);
  });

  it("iterates every page with --all", async () => {
    const env = { INVOICING_API_KEY: await keyOf() };
    for (const name of ["A", "B", "C"]) expect((await invoicing(["customers", "create", `name=${name}`, "currency=USD"], env)).code).toBe(0);
    const first = JSON.parse((await invoicing(["customers", "list", "limit:=2", "--json"], env)).stdout);
    expect(first).toMatchObject({ has_more: true });
    expect(first.data).toHaveLength(2);
    const all = JSON.parse((await invoicing(["customers", "list", "limit:=2", "--all", "--json"], env)).stdout);
    expect(all.data.map((customer: { name: string }) => customer.name)).toEqual(["C", "B", "A"]);
  });

  it("exits 1 with one readable line and the request id when the API refuses", async () => {
    const revoked = await spawned(["customers", "list"], { INVOICING_API_KEY: await keyOf({ revoked: true }) });
    expect(revoked.code).toBe(1);
    expect(revoked.stdout).toBe("");
    expect(revoked.stderr).toMatch(/^Error: This API key has been revoked\. Create a new key in the dashboard\. \(api_key_revoked, request req_\w+\)\n$/);
    const malformed = await invoicing(["customers", "list"], { INVOICING_API_KEY: "sk_live_123" });
    expect(malformed.code).toBe(1);
    expect(malformed.stderr).toMatch(/^Error: This is not a valid API key\. .* \(api_key_invalid, request req_\w+\)\n$/);

    const invalid = await invoicing(["customers", "create", "currency=EUR"], { INVOICING_API_KEY: await keyOf() });
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toMatch(/\(validation_failed, request req_\w+\)\n {2}name: /);

    const readOnly = await invoicing(["customers", "create", "name=X", "currency=EUR"], { INVOICING_API_KEY: await keyOf({ access: "read_only" }) });
    expect(readOnly.code).toBe(1);
    expect(readOnly.stderr).toMatch(/api_key_scope_insufficient/);
  });

  it("exits 2 and says what to correct for a command line it cannot run", async () => {
    const key = { INVOICING_API_KEY: await keyOf() };
    const cases: [string[], Record<string, string | undefined>, RegExp][] = [
      [["customers", "list"], { INVOICING_API_KEY: undefined }, /No API key: pass \{ apiKey \} or set INVOICING_API_KEY/],
      [["widgets", "list"], key, /No resource "widgets": use customers, products, invoices, analytics, usage or mcp\./],
      [["invoices", "explode"], key, /No action "explode" for invoices: use list, get, create/],
      [["invoices", "finalize"], key, /Name the invoice: its id comes after the action\./],
      [["products", "create", "unit_amount:=12,5"], key, /unit_amount:= takes JSON, and 12,5 is not JSON/],
      [["customers", "list", "--colour"], key, /Unknown option '--colour'/],
    ];
    for (const [args, env, message] of cases) {
      const result = await invoicing(args, env);
      expect(result.code, args.join(" ")).toBe(2);
      expect(result.stderr, args.join(" ")).toMatch(message);
    }
    expect((await spawned(["widgets", "list"], key)).code).toBe(2);
    const help = await spawned(["--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/invoices pdf <in_…>\s+The invoice as a PDF/);
  });
});
