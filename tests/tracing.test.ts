import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InMemorySpanExporter, type ReadableSpan } from "@opentelemetry/sdk-trace-node";
import { activeTracing, inSpan, installTracing } from "@/core/tracing";
import { createLog } from "@/core/log";
import { findRequest } from "@/db/queries/request-details";
import { createTracing } from "@/lib/tracing/open-telemetry";
import { stopTracing } from "@/lib/tracing/start";
import { startApiServer } from "./helpers/api-server";
import { eventually } from "./helpers/eventually";
import { createOrg, insertKey } from "./helpers/factories";
import { startServerProcess, type ServerProcess } from "./helpers/server-process";
import { receiver, stopReceivers, type Receiver } from "./helpers/webhook-receiver";

// Traces (docs/operations.md#traces): a /v1 call continues its caller's traceparent, answers with
// its own, keeps the trace id on its audit row, and while the process traces its span tree holds
// the admission, the handler, each database statement and the log write.

const CALLER_TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
const CALLER_SPAN = "00f067aa0ba902b7";
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-(0[01])$/;

function answeredTrace(response: Response) {
  const [, traceId, spanId, flags] = TRACEPARENT.exec(response.headers.get("traceparent") ?? "") ?? [];
  return { traceId, spanId, flags };
}

describe("a /v1 call while the process traces", () => {
  const exporter = new InMemorySpanExporter();
  beforeAll(() => installTracing(createTracing({ exporter })));
  afterAll(() => stopTracing());
  const api = startApiServer();

  it("is the span tree of the caller's trace: the request, its admission, handler, statements and log write", async () => {
    const org = await createOrg("pro");
    const key = await insertKey(org.id);
    exporter.reset();
    const response = await api.request("/v1/customers?limit=5", { key: key.value, headers: { traceparent: `00-${CALLER_TRACE}-${CALLER_SPAN}-01` } });
    expect(response.status).toBe(200);
    const answered = answeredTrace(response);
    expect(answered).toMatchObject({ traceId: CALLER_TRACE, flags: "01" });

    const spans = exporter.getFinishedSpans().filter((span) => span.spanContext().traceId === CALLER_TRACE);
    const named = (name: string) => spans.filter((span) => span.name === name);
    const childrenOf = (parent: ReadableSpan) => spans.filter((span) => span.parentSpanContext?.spanId === parent.spanContext().spanId);
    const [request] = named("GET /v1/customers");
    expect(request, spans.map((span) => span.name).join(", ")).toBeDefined();
    // The server span is the caller's span's child, and the one the answer names.
    expect(request!.parentSpanContext?.spanId).toBe(CALLER_SPAN);
    expect(request!.spanContext().spanId).toBe(answered.spanId);
    expect(request!.attributes).toMatchObject({
      "http.route": "/v1/customers",
      "http.response.status_code": 200,
      "invoicing.request_id": response.headers.get("x-request-id"),
    });
    // Beside them, now and then, the statement of the rate windows' pruning a request may start (lib/api/gateway.ts).
    const steps = childrenOf(request!).filter((span) => span.attributes["db.system.name"] === undefined);
    expect(steps.map((span) => span.name)).toEqual(["gateway.admission", "api.handler", "request_log.write"]);

    const statementsUnder = (name: string) => {
      const [parent] = named(name);
      const batch = childrenOf(parent!).find((span) => span.name.endsWith(" batch"));
      return [...childrenOf(parent!), ...(batch ? childrenOf(batch) : [])].filter((span) => span.attributes["db.system.name"] === "postgresql");
    };
    expect(statementsUnder("gateway.admission").length).toBeGreaterThanOrEqual(1);
    expect(statementsUnder("request_log.write").map((span) => span.attributes["db.query.text"])).toEqual([expect.stringContaining("insert into request_log")]);
    const handlerStatements = statementsUnder("api.handler");
    expect(handlerStatements.map((span) => span.name)).toContain("SELECT");
    // A statement's text, never its values: the key's organization is a parameter.
    for (const span of spans) expect(JSON.stringify(span.attributes)).not.toContain(org.id);

    const row = await findRequest(org.id, response.headers.get("x-request-id")!);
    expect(row?.traceId).toBe(CALLER_TRACE);
  });

  it("starts a trace of its own, recorded, when the caller sends none or an invalid one", async () => {
    const org = await createOrg("pro");
    const key = await insertKey(org.id);
    for (const traceparent of [undefined, "00-00000000000000000000000000000000-00f067aa0ba902b7-01", "not a traceparent"]) {
      const response = await api.request("/v1/products", { key: key.value, headers: traceparent ? { traceparent } : {} });
      const answered = answeredTrace(response);
      expect(answered.flags).toBe("01");
      expect(answered.traceId).not.toBe("00000000000000000000000000000000");
      const request = exporter.getFinishedSpans().find((span) => span.spanContext().spanId === answered.spanId);
      expect(request?.parentSpanContext).toBeUndefined();
      expect((await findRequest(org.id, response.headers.get("x-request-id")!))?.traceId).toBe(answered.traceId);
    }
  });
});

describe("a log line while the process traces", () => {
  beforeAll(() => installTracing(createTracing({ exporter: new InMemorySpanExporter() })));
  afterAll(() => stopTracing());

  it("names the trace of the work it was written in, and no trace outside any", async () => {
    const lines: string[] = [];
    const logger = createLog({ write: (line: string) => void lines.push(line) });
    let traceId: string | undefined;
    await inSpan("work", async () => {
      traceId = activeTracing()!.activeTraceId();
      logger.info({ requestId: "req_1" }, "inside");
    });
    logger.info("outside");
    expect(traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(JSON.parse(lines[0]!)).toMatchObject({ msg: "inside", requestId: "req_1", traceId });
    expect(JSON.parse(lines[1]!)).not.toHaveProperty("traceId");
  });
});

describe("a /v1 call while the process does not trace", () => {
  const api = startApiServer();

  it("still continues the caller's trace in its answer and audit row, and starts an unsampled one otherwise", async () => {
    const org = await createOrg("pro");
    const key = await insertKey(org.id);
    const continued = await api.request("/v1/products", { key: key.value, headers: { traceparent: `00-${CALLER_TRACE}-${CALLER_SPAN}-01` } });
    expect(answeredTrace(continued)).toMatchObject({ traceId: CALLER_TRACE, flags: "01" });
    expect(answeredTrace(continued).spanId).not.toBe(CALLER_SPAN);
    expect((await findRequest(org.id, continued.headers.get("x-request-id")!))?.traceId).toBe(CALLER_TRACE);

    const own = await api.request("/v1/products", { key: key.value });
    expect(answeredTrace(own)).toMatchObject({ traceId: expect.stringMatching(/^[0-9a-f]{32}$/), flags: "00" });
    expect((await findRequest(org.id, own.headers.get("x-request-id")!))?.traceId).toBe(answeredTrace(own).traceId);
    // Refused before any key is read: no audit row, an answer with its trace all the same.
    expect(answeredTrace(await api.request("/v1/products")).traceId).toMatch(/^[0-9a-f]{32}$/);
  });
});

type OtlpSpan = { traceId: string; spanId: string; parentSpanId?: string; name: string };
type OtlpExport = { resourceSpans: { resource: { attributes: { key: string; value: { stringValue?: string } }[] }; scopeSpans: { spans: OtlpSpan[] }[] }[] };

describe.skipIf(!process.env.DATABASE_URL)("the compiled API server with OTEL_EXPORTER_OTLP_ENDPOINT", () => {
  let server: ServerProcess;
  // A local OTLP/HTTP receiver: the JSON export requests the server sends.
  let collector: Receiver;
  const exports = () => collector.received.map((received) => ({ path: received.path, body: JSON.parse(received.body) as OtlpExport }));
  const spans = () => exports().flatMap(({ body }) => body.resourceSpans.flatMap((resource) => resource.scopeSpans.flatMap((scope) => scope.spans)));
  beforeAll(async () => {
    collector = await receiver();
    server = await startServerProcess("api-server.ts", {
      OTEL_EXPORTER_OTLP_ENDPOINT: new URL(collector.url).origin,
      OTEL_BSP_SCHEDULE_DELAY: "50",
      OTEL_SERVICE_NAME: "invoicing-test",
    });
  });
  afterAll(async () => {
    await server?.stop();
    await stopReceivers();
  });

  it("sends each call's spans over OTLP/HTTP, in the caller's trace", async () => {
    const org = await createOrg("pro");
    const key = await insertKey(org.id);
    const response = await fetch(`${server.base}/v1/invoices?limit=3`, {
      headers: { "X-API-Key": key.value, traceparent: `00-${CALLER_TRACE}-${CALLER_SPAN}-01` },
    });
    expect(response.status).toBe(200);
    const traced = await eventually(
      () => spans().filter((span) => span.traceId === CALLER_TRACE),
      (found) => found.some((span) => span.name === "request_log.write"),
    );
    expect(exports()[0]!.path).toBe("/v1/traces");
    const request = traced.find((span) => span.name === "GET /v1/invoices")!;
    expect(request.parentSpanId).toBe(CALLER_SPAN);
    expect(traced.filter((span) => span.parentSpanId === request.spanId).map((span) => span.name)).toEqual(
      expect.arrayContaining(["gateway.admission", "api.handler", "request_log.write"]),
    );
    expect(exports()[0]!.body.resourceSpans[0]!.resource.attributes).toContainEqual({ key: "service.name", value: { stringValue: "invoicing-test" } });
  });
});

describe("the compiled servers", () => {
  const dist = path.resolve(import.meta.dirname, "../dist");
  const files = readdirSync(dist).filter((file) => file.endsWith(".js"));
  const text = (file: string) => readFileSync(path.join(dist, file), "utf8");

  it("load OpenTelemetry only through a dynamic import, made when a trace endpoint is set", () => {
    const withOpenTelemetry = files.filter((file) => text(file).includes("@opentelemetry/"));
    expect(withOpenTelemetry).toEqual([expect.stringMatching(/^open-telemetry-\w+\.js$/)]);
    const importers = files.filter((file) => file !== withOpenTelemetry[0] && text(file).includes(withOpenTelemetry[0]!));
    expect(importers).toHaveLength(1);
    const importer = text(importers[0]!);
    expect(importer).toContain(`import("./${withOpenTelemetry[0]}")`);
    expect(importer).not.toMatch(new RegExp(`from\\s*"\\./${withOpenTelemetry[0]!.replace(".", "\\.")}"`));
  });
});
