/**
 * The heaviest inputs the API accepts or refuses, as the fuzz suite (tests/fuzz-*.test.ts) and
 * The input bounds of docs/security.md#input point to them: the widest analytics range, an invoice at every limit and its
 * PDF, metadata at its limits, a search full of wildcards, floods of combining marks, deep JSON.
 * Each is sent one at a time and measured twice: the longest time anything held the event loop
 * (50 ms at most, the goal), and the process CPU, which also counts the PDF worker
 * threads, the embedded database on PGlite and the small client side of one request.
 */
import { monitorEventLoopDelay } from "node:perf_hooks";
import { createOrg, insertKey } from "@/tests/helpers/factories";
import { median, ms, printLines, printTable, startBenchApi } from "./lib";

const REPEATS = 15;

interface WorstCase {
  name: string;
  path: string;
  method?: string;
  body?: string;
}

const json = (value: unknown) => JSON.stringify(value);
const longText = (length: number) => "Espresso beans, single origin, medium roast. ".repeat(Math.ceil(length / 46)).slice(0, length);

async function measure(run: () => Promise<unknown>): Promise<{ cpuMs: number; blockedMs: number }> {
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  const before = process.cpuUsage();
  await run();
  const used = process.cpuUsage(before);
  delay.disable();
  return { cpuMs: (used.user + used.system) / 1000, blockedMs: delay.max / 1e6 };
}

export async function benchWorstCases(): Promise<void> {
  const org = await createOrg("enterprise", { rateLimitPerMinute: 100_000 });
  const { value: key } = await insertKey(org.id, { name: "Worst cases" });
  const api = await startBenchApi();
  const send = async (request: { path: string; method?: string; body?: string | Uint8Array<ArrayBuffer> }) => {
    const response = await fetch(api.base + request.path, {
      method: request.method ?? "GET",
      headers: { "X-API-Key": key, "Content-Type": "application/json" },
      body: request.body,
    });
    return { status: response.status, body: await response.arrayBuffer() };
  };
  try {
    const post = async (path: string, body: unknown) =>
      JSON.parse(new TextDecoder().decode((await send({ path, method: "POST", body: json(body) })).body)) as { id: string };
    const customer = await post("/v1/customers", {
      name: longText(200),
      currency: "EUR",
      address: { line1: longText(200), city: longText(100) },
      tax_id: "DE123456789",
    });
    // 250 lines of the longest description, priced so that the total stays under 2^53 − 1.
    const fullLines = Array.from({ length: 250 }, (_, i) => ({
      description: longText(500),
      quantity: 1_000,
      unit_amount: 9_000_000_000 + i,
      tax_rate: 19.9999,
    }));
    const invoice = await post("/v1/invoices", { customer: customer.id, notes: longText(2000), lines: fullLines });
    const paid = await post("/v1/invoices", { customer: customer.id, lines: [{ description: "Work", quantity: 1, unit_amount: 1000 }] });
    await send({ path: `/v1/invoices/${paid.id}/finalize`, method: "POST" });
    await send({ path: `/v1/invoices/${paid.id}/pay`, method: "POST" });

    const metadata = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`key_${String(i).padStart(36, "0")}`, longText(500)]));
    const cases: WorstCase[] = [
      { name: "analytics over the widest range (10 years, 120 months)", path: "/v1/analytics?from=2016-01-01&to=2025-12-31" },
      { name: "analytics to=9999-12-30 (was ~6 s, now refused)", path: "/v1/analytics?to=9999-12-30" },
      {
        name: "create an invoice of 250 full lines",
        path: "/v1/invoices",
        method: "POST",
        body: json({ customer: customer.id, notes: longText(2000), lines: fullLines }),
      },
      { name: "PDF of that 250-line invoice", path: "/v1/pdf/generate", method: "POST", body: json({ invoice: invoice.id }) },
      { name: "retrieve the 250-line invoice", path: `/v1/invoices/${invoice.id}` },
      { name: "customer with 50 metadata keys of 500 characters", path: "/v1/customers", method: "POST", body: json({ name: "Metadata GmbH", metadata }) },
      { name: "search of 200 wildcard characters", path: `/v1/customers?search=${encodeURIComponent("%_".repeat(100))}&limit=100` },
      { name: "1 MiB name of combining marks (refused)", path: "/v1/customers", method: "POST", body: json({ name: `a${"\u0301".repeat(500_000)}` }) },
      { name: "JSON nested 20,000 deep (refused)", path: "/v1/customers", method: "POST", body: "[".repeat(20_000) + "]".repeat(20_000) },
      {
        name: "250 lines, each one invalid (refused with 100 details)",
        path: "/v1/invoices",
        method: "POST",
        body: json({ customer: customer.id, lines: fullLines.map((line) => ({ ...line, quantity: -1, extra: "x".repeat(1000) })) }),
      },
    ];

    const rows: string[][] = [["input", "status", "event loop held, median", "max", "process CPU, median"]];
    let slowest = { name: "", blockedMs: 0 };
    for (const worst of cases) {
      let status = 0;
      // Encoded once, so the client's own work stays out of the figure as far as it can.
      const request = { ...worst, body: worst.body === undefined ? undefined : new TextEncoder().encode(worst.body) };
      await send(request); // warm-up: first query plans, module loading
      const samples: { cpuMs: number; blockedMs: number }[] = [];
      for (let i = 0; i < REPEATS; i++) samples.push(await measure(async () => (status = (await send(request)).status)));
      const blocked = median(samples.map((sample) => sample.blockedMs));
      if (blocked > slowest.blockedMs) slowest = { name: worst.name, blockedMs: blocked };
      rows.push([
        worst.name,
        String(status),
        ms(blocked),
        ms(Math.max(...samples.map((sample) => sample.blockedMs))),
        ms(median(samples.map((sample) => sample.cpuMs))),
      ]);
    }
    printTable(`5. Worst-case inputs: each sent ${REPEATS} times after one warm-up`, rows);
    printLines([["slowest worst case (median time the event loop was held), goal under 50 ms", `${ms(slowest.blockedMs)}: ${slowest.name}`]]);
  } finally {
    await api.close();
  }
}
