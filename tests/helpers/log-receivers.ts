import http from "node:http";
import type { AddressInfo } from "node:net";
import { gunzipSync } from "node:zlib";
import { Webhook } from "standardwebhooks";

/**
 * Local receivers for log streams, each checking the requests as its real service would (the
 * path, the credential, the body's format and limits) and answering as it does, on 127.0.0.1 and
 * an ephemeral port (the destinations reach them under WEBHOOK_ALLOW_PRIVATE=true). Each keeps the
 * requests it got and the events it took, in order; what broke its service's format goes into
 * `problems`, which a test expects empty. `answerNext` makes it fail (a status, or no answer at
 * all) for the next requests, for the outage tests.
 *
 *   const intake = await startReceiver(new DatadogIntake("0123…"));
 *   …; await intake.stop();
 */

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  /** The body as sent, gunzipped when it said `Content-Encoding: gzip`. */
  body: string;
}

export type Answer = { status: number; body?: string | object; headers?: Record<string, string> } | "hang";

/** What a receiver made of a request: a refusal its service would answer, or the events it took. */
type Verdict<Event> = { refuse: Answer; problem?: string } | { take: Event[]; answer: Answer };

export abstract class LogReceiver<Event> {
  readonly requests: ReceivedRequest[] = [];
  readonly events: Event[] = [];
  readonly problems: string[] = [];
  url = "";
  private readonly queued: Answer[] = [];
  /** The path its service takes events on: anything else is a 404 and a problem; "" takes any path. */
  constructor(readonly path: string) {}
  private readonly server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => this.handle(request, Buffer.concat(chunks), response));
  });

  /** Answers the next `times` requests with `answer` (after checking them), taking none of their events. */
  answerNext(answer: Answer, times = 1): this {
    for (let i = 0; i < times; i++) this.queued.push(answer);
    return this;
  }

  protected abstract judge(request: ReceivedRequest): Verdict<Event>;

  private handle(request: http.IncomingMessage, raw: Buffer, response: http.ServerResponse) {
    let body: string;
    try {
      body = (request.headers["content-encoding"] === "gzip" ? gunzipSync(raw) : raw).toString("utf8");
    } catch {
      this.problems.push("the body said gzip and was not");
      return void response.writeHead(400).end();
    }
    const received = { method: request.method ?? "", path: request.url ?? "", headers: request.headers, body };
    this.requests.push(received);
    const verdict = wrongPath(received, this.path) ?? this.judge(received);
    if ("problem" in verdict && verdict.problem) this.problems.push(verdict.problem);
    const queued = this.queued.shift();
    if (queued === undefined && "take" in verdict) this.events.push(...verdict.take);
    const answer = queued ?? ("take" in verdict ? verdict.answer : verdict.refuse);
    if (answer === "hang") return;
    const text = typeof answer.body === "string" ? answer.body : JSON.stringify(answer.body ?? {});
    response.writeHead(answer.status, { "content-type": "application/json", ...answer.headers }).end(text);
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

export function startReceiver<R extends LogReceiver<unknown>>(receiver: R): Promise<R> {
  return receiver.start();
}

/** A receiver of any POST, taking nothing: an address that fails (`answerNext`) or hangs, for any destination. */
export class HttpSink extends LogReceiver<never> {
  constructor() {
    super("");
  }

  protected judge(): Verdict<never> {
    return { take: [], answer: { status: 200 } };
  }
}

/** A request that is not its service's POST; with no path set, none (the sink stands for any service, S3's PUT too). */
function wrongPath(request: ReceivedRequest, path: string): Verdict<never> | null {
  if (!path || (request.method === "POST" && request.path === path)) return null;
  return { refuse: { status: 404 }, problem: `${request.method} ${request.path} instead of POST ${path}` };
}

/**
 * Datadog's logs intake, v2 (https://docs.datadoghq.com/api/latest/logs/send-logs/): `DD-API-KEY`,
 * a JSON array of at most 1,000 entries and 5 MB uncompressed, 202 when taken.
 */
export class DatadogIntake extends LogReceiver<JsonObject> {
  constructor(readonly apiKey: string) {
    super("/api/v2/logs");
  }

  protected judge(request: ReceivedRequest): Verdict<JsonObject> {
    if (request.headers["dd-api-key"] !== this.apiKey) return { refuse: { status: 403, body: { errors: ["Forbidden"] } } };
    if (!String(request.headers["content-type"]).startsWith("application/json"))
      return { refuse: { status: 400 }, problem: "Content-Type is not application/json" };
    if (Buffer.byteLength(request.body) > 5_000_000)
      return { refuse: { status: 413 }, problem: `a body of ${Buffer.byteLength(request.body)} bytes, over 5 MB` };
    const entries = parsed(request.body);
    if (!Array.isArray(entries) || entries.length === 0 || entries.length > 1000)
      return { refuse: { status: 400 }, problem: "the body is not an array of 1 to 1,000 entries" };
    const bad = entries.findIndex(
      (entry) => !isObject(entry) || typeof entry.message !== "string" || entry.ddsource !== "invoicing" || entry.service !== "invoicing",
    );
    if (bad !== -1) return { refuse: { status: 400 }, problem: `entry ${bad} lacks its message, ddsource or service` };
    return { take: entries as JsonObject[], answer: { status: 202, body: {} } };
  }
}

/** A parsed JSON object as the tests read it: its fields unknown until a check narrows them. */
export type JsonObject = Record<string, unknown>;
/** An event as the destinations without a format of their own write it (lib/log-streams/destinations/event-record.ts). */
export interface EventJson {
  id: string;
  type: string;
  occurred_at: string;
  organization_id: string;
  livemode: boolean | null;
  message: string;
  data: JsonObject;
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isEventJson(value: unknown): value is EventJson {
  return isObject(value) && typeof value.id === "string" && typeof value.occurred_at === "string" && typeof value.message === "string" && isObject(value.data);
}

/** The JSON objects of `text` written one after the other (HEC's batch format), or null when it is not that. */
export function concatenatedObjects(text: string): unknown[] | null {
  const objects: unknown[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (inString) {
      if (char === "\\") i++;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === "{" && depth++ === 0) start = i;
    else if (char === "}" && --depth === 0) objects.push(parsed(text.slice(start, i + 1)));
    else if (depth === 0 && !/\s/.test(char!)) return null;
  }
  return depth === 0 && !objects.includes(undefined) ? objects : null;
}

/** HEC's envelope of one event, as the collector took it. */
export interface HecEnvelope {
  time: number;
  host?: string;
  source?: string;
  sourcetype?: string;
  event: EventJson;
}

function isEnvelope(value: unknown): value is HecEnvelope {
  return isObject(value) && isEventJson(value.event) && typeof value.time === "number";
}

/**
 * Splunk's HTTP Event Collector: `Authorization: Splunk <token>`, events as concatenated JSON
 * envelopes each with an `event`, answered with HEC's `{"text", "code"}`
 * (https://help.splunk.com/en/splunk-enterprise/get-data-in/collect-http-event-data/troubleshoot-http-event-collector).
 */
export class SplunkHec extends LogReceiver<HecEnvelope> {
  constructor(readonly token: string) {
    super("/services/collector/event");
  }

  protected judge(request: ReceivedRequest): Verdict<HecEnvelope> {
    const authorization = request.headers.authorization;
    if (!authorization) return { refuse: { status: 401, body: { text: "Token is required", code: 2 } } };
    if (!authorization.startsWith("Splunk ")) return { refuse: { status: 401, body: { text: "Invalid authorization", code: 3 } } };
    if (authorization !== `Splunk ${this.token}`) return { refuse: { status: 403, body: { text: "Invalid token", code: 4 } } };
    if (!request.body.trim()) return { refuse: { status: 400, body: { text: "No data", code: 5 } }, problem: "an empty body" };
    const envelopes = concatenatedObjects(request.body);
    if (!envelopes) return { refuse: { status: 400, body: { text: "Invalid data format", code: 6 } }, problem: "the body is not concatenated JSON objects" };
    const bad = envelopes.findIndex((envelope) => !isEnvelope(envelope));
    if (bad !== -1)
      return {
        refuse: { status: 400, body: { text: "Event field is required", code: 12, "invalid-event-number": bad } },
        problem: `envelope ${bad} lacks its event, its id or its time`,
      };
    return { take: envelopes as HecEnvelope[], answer: { status: 200, body: { text: "Success", code: 0 } } };
  }
}

/** OTLP's KeyValue in its JSON encoding; the value names its type (`stringValue`, `kvlistValue`, …). */
export interface OtlpKeyValue {
  key: string;
  value: JsonObject;
}

/** A LogRecord as the collector took it, with the scope it came in. */
export interface OtlpLogRecord {
  timeUnixNano: string;
  observedTimeUnixNano: string;
  severityNumber: number;
  severityText?: string;
  body: JsonObject;
  eventName?: string;
  attributes: OtlpKeyValue[];
  scope: JsonObject;
}

/** Why `value` is not an OTLP AnyValue in the JSON encoding, or null. */
function anyValueProblem(value: unknown): string | null {
  if (!isObject(value)) return "not an object";
  const entries = Object.entries(value);
  if (entries.length === 0) return null;
  if (entries.length > 1) return `several types: ${Object.keys(value).join(", ")}`;
  const [[key, inner]] = entries as [[string, unknown]];
  if (key === "stringValue" || key === "bytesValue") return typeof inner === "string" ? null : `${key} not a string`;
  if (key === "boolValue") return typeof inner === "boolean" ? null : "boolValue not a boolean";
  if (key === "intValue") return typeof inner === "string" && /^-?\d+$/.test(inner) ? null : "intValue not a decimal string";
  if (key === "doubleValue") return typeof inner === "number" ? null : "doubleValue not a number";
  const values = isObject(inner) ? inner.values : undefined;
  if (key === "arrayValue") return Array.isArray(values) ? (values.map(anyValueProblem).find(Boolean) ?? null) : "arrayValue without values";
  if (key === "kvlistValue") return keyValuesProblem(values);
  return `unknown type ${key}`;
}

function keyValuesProblem(list: unknown): string | null {
  if (!Array.isArray(list)) return "attributes not a list";
  for (const entry of list as unknown[]) {
    if (!isObject(entry) || typeof entry.key !== "string") return "a KeyValue without its key";
    const problem = anyValueProblem(entry.value);
    if (problem) return `${entry.key}: ${problem}`;
  }
  return null;
}

const NANOS = /^\d+$/;

function logRecordProblem(record: JsonObject): string | null {
  if (typeof record.timeUnixNano !== "string" || !NANOS.test(record.timeUnixNano)) return "timeUnixNano is not a decimal string";
  if (typeof record.observedTimeUnixNano !== "string" || !NANOS.test(record.observedTimeUnixNano)) return "observedTimeUnixNano is not a decimal string";
  const severity = record.severityNumber;
  if (typeof severity !== "number" || !Number.isInteger(severity) || severity < 1 || severity > 24) return "severityNumber is not 1 to 24";
  return anyValueProblem(record.body) ?? keyValuesProblem(record.attributes);
}

/** The records of an ExportLogsServiceRequest in order, each with its scope, and its resources; or what is wrong with it. */
function exportedLogs(body: unknown): { records: JsonObject[]; resources: JsonObject[] } | string {
  if (!isObject(body) || !Array.isArray(body.resourceLogs)) return "no resourceLogs";
  const records: JsonObject[] = [];
  const resources: JsonObject[] = [];
  for (const resourceLogs of body.resourceLogs as unknown[]) {
    if (!isObject(resourceLogs) || !isObject(resourceLogs.resource) || !Array.isArray(resourceLogs.scopeLogs))
      return "a ResourceLogs without its resource or scopeLogs";
    const problem = keyValuesProblem(resourceLogs.resource.attributes);
    if (problem) return `resource: ${problem}`;
    resources.push(resourceLogs.resource);
    for (const scopeLogs of resourceLogs.scopeLogs as unknown[]) {
      if (!isObject(scopeLogs) || !Array.isArray(scopeLogs.logRecords)) return "a ScopeLogs without logRecords";
      for (const record of scopeLogs.logRecords as unknown[]) records.push({ ...(isObject(record) ? record : {}), scope: scopeLogs.scope });
    }
  }
  return { records, resources };
}

/**
 * An OpenTelemetry collector's OTLP/HTTP logs receiver, JSON encoding
 * (https://opentelemetry.io/docs/specs/otlp/#otlphttp): `/v1/logs`, `Content-Type:
 * application/json`, an ExportLogsServiceRequest with string nanoseconds and typed AnyValues.
 */
export class OtlpCollector extends LogReceiver<OtlpLogRecord> {
  readonly resources: JsonObject[] = [];
  constructor(readonly requiredHeaders: Record<string, string> = {}) {
    super("/v1/logs");
  }

  protected judge(request: ReceivedRequest): Verdict<OtlpLogRecord> {
    if (request.headers["content-type"] !== "application/json") return { refuse: { status: 415 }, problem: `Content-Type ${request.headers["content-type"]}` };
    const missing = Object.entries(this.requiredHeaders).find(([name, value]) => request.headers[name.toLowerCase()] !== value);
    if (missing) return { refuse: { status: 401, body: { code: 16, message: "Unauthenticated" } } };
    const exported = exportedLogs(parsed(request.body));
    const problem = typeof exported === "string" ? exported : exported.records.map(logRecordProblem).find(Boolean);
    if (problem || typeof exported === "string") return { refuse: { status: 400, body: { code: 3, message: problem } }, problem: problem ?? "?" };
    this.resources.push(...exported.resources);
    return { take: exported.records as unknown as OtlpLogRecord[], answer: { status: 200, body: {} } };
  }
}

/** A signed HTTPS endpoint, verified with the standardwebhooks package as a receiver would. */
export class SignedEndpoint extends LogReceiver<EventJson> {
  /** `path`: where the stream's URL points; any path by default, as an endpoint's URL is the customer's choice. */
  constructor(
    readonly secret: string,
    path = "",
  ) {
    super(path);
  }

  protected judge(request: ReceivedRequest): Verdict<EventJson> {
    try {
      new Webhook(this.secret).verify(request.body, request.headers as Record<string, string>);
    } catch {
      return { refuse: { status: 401, body: { error: "invalid signature" } } };
    }
    const body = parsed(request.body);
    const data = isObject(body) && body.type === "log_events" && isObject(body.data) ? body.data : null;
    if (!data || !Array.isArray(data.events) || typeof data.stream_id !== "string") return { refuse: { status: 400 }, problem: "not a log_events message" };
    const bad = (data.events as unknown[]).findIndex((event) => !isEventJson(event));
    if (bad !== -1) return { refuse: { status: 400 }, problem: `event ${bad} lacks its id, time, message or data` };
    return { take: data.events as EventJson[], answer: { status: 200, body: {} } };
  }
}
