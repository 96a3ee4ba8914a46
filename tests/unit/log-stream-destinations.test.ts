import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { LogEvent } from "@/core/log-streams";
import { datadogBodies } from "@/lib/log-streams/destinations/datadog";
import { DeliveryError, type Batch, type DestinationSecrets, type DestinationSettings } from "@/lib/log-streams/destinations/destination";
import { destinationFor } from "@/lib/log-streams/destinations";
import { eventRecord } from "@/lib/log-streams/destinations/event-record";
import { eventMessage } from "@/lib/log-streams/destinations/message";
import { s3ObjectKey } from "@/lib/log-streams/destinations/s3";
import { newSigningSecret } from "@/lib/webhooks/signing-secret";
import { activityEvent, alertEvent, batchOf, eventsOfEveryKind, minutesAgo, ORG_ID, requestEvent } from "../helpers/log-events";
import {
  DatadogIntake,
  HttpSink,
  type JsonObject,
  type LogReceiver,
  OtlpCollector,
  type OtlpKeyValue,
  type OtlpLogRecord,
  SignedEndpoint,
  SplunkHec,
  startReceiver,
} from "../helpers/log-receivers";
import { S3RVER_CREDENTIALS, startS3 } from "../helpers/s3-receiver";

// The receivers listen on 127.0.0.1, which the SSRF guard lets through only under this; one test turns it off.
process.env.WEBHOOK_ALLOW_PRIVATE = "true";

const API_KEY = "0123456789abcdef0123456789abcdef";
const HEC_TOKEN = "12345678-1234-1234-1234-123456789012";

const first = eventsOfEveryKind("a");
const second = eventsOfEveryKind("b");
const ids = (events: { id?: unknown }[]) => events.map((event) => event.id);

/** An event as Splunk, S3 and HTTPS carry it, with the line a reader sees. */
const recordOf = (event: LogEvent, message: string) => ({
  id: event.id,
  type: event.type,
  occurred_at: event.occurredAt,
  organization_id: ORG_ID,
  livemode: event.livemode,
  message,
  data: event.data,
});

/** What sending `batch` threw, which must be a DeliveryError. */
async function failure(settings: DestinationSettings, secrets: DestinationSecrets, batch: Batch): Promise<DeliveryError> {
  const error = await destinationFor(
    settings,
    secrets,
  )(batch).then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(DeliveryError);
  return error as DeliveryError;
}

const receivers: LogReceiver<unknown>[] = [];
async function started<R extends LogReceiver<unknown>>(receiver: R): Promise<R> {
  receivers.push(await startReceiver(receiver));
  return receiver;
}
// Every receiver checked its service's format: nothing a test sent broke it.
afterEach(async () => {
  const stopping = receivers.splice(0);
  await Promise.all(stopping.map((receiver) => receiver.stop()));
  for (const receiver of stopping) expect(receiver.problems).toEqual([]);
});

/** A batch whose signal aborts after `ms`: the engine stopping a delivery early. */
const abortingAfter = (ms: number) => batchOf(first, AbortSignal.timeout(ms));

describe("the one-line message", () => {
  it("says a request as the audit log does, an activity entry by its label, an alert by its title", () => {
    expect(first.map(eventMessage)).toEqual([
      "GET /v1/invoices 200 in 12 ms (key “Billing server” key_live)",
      "POST /v1/invoices 429 rate_limited in 3 ms (key “CI” key_test)",
      "GET /v1/invoices 500 internal_error in 48 ms (key “Billing server” key_live)",
      "admin@acme.test: Key revoked “CI”",
      "Alert: 80 % of the monthly API quota used",
    ]);
  });

  it("names the system, a key's alert by the key, and a title the reader wrote as it is", () => {
    expect(eventMessage(activityEvent("act_1", { action: "api_key.expired", actor_kind: "system", actor_email: null }))).toBe("System: Key expired “CI”");
    expect(
      eventMessage(
        alertEvent("alert_1", {
          kind: "budget_threshold",
          key_id: "key_ci",
          key_name: "CI",
          threshold: 100,
          limit: 5000,
          used: 5000,
          period: "day",
          resets_at: "2026-11-26T00:00:00.000Z",
        }),
      ),
    ).toBe("Alert: “CI” used up its budget");
    expect(eventMessage(alertEvent("alert_2", { kind: "quota_threshold", title: "Written by the reader" }))).toBe("Alert: Written by the reader");
  });
});

describe("Datadog", () => {
  const settingsFor = (intake: DatadogIntake): DestinationSettings => ({ kind: "datadog", site: "datadoghq.eu", intakeUrl: `${intake.url}/api/v2/logs` });
  const secrets: DestinationSecrets = { kind: "datadog", apiKey: API_KEY };

  it("sends two batches gzipped with the API key, every entry once and in order, with its attributes", async () => {
    const intake = await started(new DatadogIntake(API_KEY));
    const send = destinationFor(settingsFor(intake), secrets);
    await send(batchOf(first));
    await send(batchOf(second));
    expect(ids(intake.events)).toEqual(ids([...first, ...second]));
    expect(intake.requests.map((request) => request.headers["content-encoding"])).toEqual(["gzip", "gzip"]);
    expect(intake.events[1]).toEqual({
      ddsource: "invoicing",
      service: "invoicing",
      ddtags: "env:test,source:request",
      message: "POST /v1/invoices 429 rate_limited in 3 ms (key “CI” key_test)",
      status: "warn",
      timestamp: first[1]!.occurredAt,
      id: "req_a2",
      type: "request",
      occurred_at: first[1]!.occurredAt,
      organization_id: ORG_ID,
      livemode: false,
      data: first[1]!.data,
    });
    expect(intake.events.map((entry) => [entry.ddtags, entry.status])).toEqual(
      Array(2)
        .fill([
          ["env:live,source:request", "info"],
          ["env:test,source:request", "warn"],
          ["env:live,source:request", "error"],
          ["source:activity", "info"],
          ["source:alert", "warn"],
        ])
        .flat(),
    );
  });

  it("posts to the site's intake when no intake URL is set", async () => {
    const { datadogIntakeUrl } = await import("@/lib/log-streams/destinations/datadog");
    expect(datadogIntakeUrl({ kind: "datadog", site: "us5.datadoghq.com", intakeUrl: null }).href).toBe(
      "https://http-intake.logs.us5.datadoghq.com/api/v2/logs",
    );
  });

  it("refuses a wrong API key as not retryable, saying so", async () => {
    const intake = await started(new DatadogIntake(API_KEY));
    const error = await failure(settingsFor(intake), { kind: "datadog", apiKey: "f".repeat(32) }, batchOf(first));
    expect(error.message).toBe("Datadog refused the API key (403: Forbidden).");
    expect(error.details).toEqual({ status: 403, retryable: false });
    expect(intake.events).toEqual([]);
  });

  it("retries a 500, a 503 and a 429, with the wait the 429 asked for", async () => {
    const intake = await started(new DatadogIntake(API_KEY));
    intake
      .answerNext({ status: 500 })
      .answerNext({ status: 503 })
      .answerNext({ status: 429, headers: { "retry-after": "7" } });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await failure(settingsFor(intake), secrets, batchOf(first))).details);
    expect(statuses).toEqual([
      { status: 500, retryable: true },
      { status: 503, retryable: true },
      { status: 429, retryable: true, retryAfterMs: 7000 },
    ]);
    intake.answerNext({ status: 413 });
    expect((await failure(settingsFor(intake), secrets, batchOf(first))).details.retryable).toBe(false);
  });

  it("splits a batch over 5 MB into requests that keep the order", async () => {
    const intake = await started(new DatadogIntake(API_KEY));
    const big = Array.from({ length: 24 }, (_, i) => requestEvent(`req_big${String(i).padStart(2, "0")}`, { data: { user_agent: "x".repeat(250_000) } }));
    await destinationFor(settingsFor(intake), secrets)(batchOf(big));
    expect(intake.requests.length).toBe(2);
    expect(intake.requests.every((request) => Buffer.byteLength(request.body) <= 5_000_000)).toBe(true);
    expect(ids(intake.events)).toEqual(ids(big));
  });

  it("sends at most 1,000 entries a request, in order", async () => {
    const intake = await started(new DatadogIntake(API_KEY));
    const many = Array.from({ length: 2_500 }, (_, i) => requestEvent(`req_${String(i).padStart(4, "0")}`));
    await destinationFor(settingsFor(intake), secrets)(batchOf(many));
    expect(intake.requests.map((request) => JSON.parse(request.body).length)).toEqual([1000, 1000, 500]);
    expect(ids(intake.events)).toEqual(ids(many));
    expect(datadogBodies([{ a: 1 }, { b: 2 }, { c: 3 }], 2)).toEqual(['[{"a":1},{"b":2}]', '[{"c":3}]']);
  });

  it("lets Datadog date an event older than its 18 hours on arrival, keeping when it happened", async () => {
    const intake = await started(new DatadogIntake(API_KEY));
    const old = requestEvent("req_old", { occurredAt: minutesAgo(2 * 24 * 60) });
    await destinationFor(settingsFor(intake), secrets)(batchOf([old]));
    expect(intake.events[0]).not.toHaveProperty("timestamp");
    expect(intake.events[0]?.occurred_at).toBe(old.occurredAt);
  });
});

describe("Splunk HEC", () => {
  const secrets: DestinationSecrets = { kind: "splunk", token: HEC_TOKEN };

  it("sends two batches as HEC envelopes with the token, every event once and in order", async () => {
    const hec = await started(new SplunkHec(HEC_TOKEN));
    const send = destinationFor({ kind: "splunk", url: hec.url }, secrets);
    await send(batchOf(first));
    // A URL pasted with the collector's path is taken as it is.
    await destinationFor({ kind: "splunk", url: `${hec.url}/services/collector` }, secrets)(batchOf(second));
    expect(hec.events.map((envelope) => envelope.event.id)).toEqual(ids([...first, ...second]));
    expect(hec.events[3]).toEqual({
      time: Date.parse(first[3]!.occurredAt) / 1000,
      source: "invoicing",
      sourcetype: "_json",
      event: recordOf(first[3]!, "admin@acme.test: Key revoked “CI”"),
    });
    expect(String(hec.events[0]!.time)).toMatch(/^\d{10}\.\d{1,3}$/);
    expect(hec.requests[0]!.body.split("\n")).toHaveLength(first.length);
  });

  it("refuses a wrong token, and a request HEC cannot read, as not retryable", async () => {
    const hec = await started(new SplunkHec(HEC_TOKEN));
    const wrongToken = await failure({ kind: "splunk", url: hec.url }, { kind: "splunk", token: "87654321-4321-4321-4321-210987654321" }, batchOf(first));
    expect(wrongToken.message).toBe("Splunk refused the HEC token (403: Invalid token, code 4).");
    expect(wrongToken.details).toEqual({ status: 403, retryable: false });
    hec.answerNext({ status: 400, body: { text: "Invalid data format", code: 6, "invalid-event-number": 0 } });
    const format = await failure({ kind: "splunk", url: hec.url }, secrets, batchOf(first));
    expect(format.message).toBe("Splunk refused the events (400: Invalid data format, code 6).");
    expect(format.details.retryable).toBe(false);
  });

  it("retries a busy or failing collector", async () => {
    const hec = await started(new SplunkHec(HEC_TOKEN));
    hec.answerNext({ status: 503, body: { text: "Server is busy", code: 9 } }).answerNext({ status: 500, body: { text: "Internal server error", code: 8 } });
    const busy = await failure({ kind: "splunk", url: hec.url }, secrets, batchOf(first));
    expect(busy.message).toBe("Splunk's collector is busy (503: Server is busy, code 9).");
    expect(busy.details.retryable).toBe(true);
    expect((await failure({ kind: "splunk", url: hec.url }, secrets, batchOf(first))).details).toEqual({ status: 500, retryable: true });
    expect(hec.events).toEqual([]);
  });
});

describe("S3", () => {
  let s3: Awaited<ReturnType<typeof startS3>>;
  beforeAll(async () => {
    s3 = await startS3(["audit"]);
  });
  afterAll(async () => {
    await s3.stop();
  });
  const settings = (endpoint: string, prefix: string | null = "logs/"): DestinationSettings => ({
    kind: "s3",
    bucket: "audit",
    region: "us-east-1",
    endpoint,
    prefix,
  });
  const secrets: DestinationSecrets = { kind: "s3", ...S3RVER_CREDENTIALS };

  // The first of the file's S3 sends: the SDK reads some settings once a process, and keeps them.
  it("takes the stream's credentials and settings, never the machine's AWS environment or files", async () => {
    const saved = process.env;
    // Every AWS_ variable the SDK reads while sending: only what says which runtime it runs in
    // (Lambda, the execution environment, for its user agent) may be among them.
    const read = new Set<string>();
    process.env = new Proxy(
      { ...saved, AWS_ACCESS_KEY_ID: "nobody", AWS_SECRET_ACCESS_KEY: "nothing", AWS_REGION: "eu-west-3", AWS_MAX_ATTEMPTS: "5", AWS_PROFILE: "missing" },
      {
        get: (env, name) => {
          if (typeof name === "string" && name.startsWith("AWS_")) read.add(name);
          return Reflect.get(env, name);
        },
      },
    );
    try {
      await destinationFor(settings(s3.endpoint, "from-env"), secrets)(batchOf(first));
      const wrong = await failure(settings(s3.endpoint), { kind: "s3", accessKeyId: "nobody", secretAccessKey: "nothing-at-all" }, batchOf(first));
      expect(wrong.message).toMatch(/^S3 refused the access key ID \(403 InvalidAccessKeyId: .+\)\.$/);
      expect(wrong.details).toEqual({ status: 403, retryable: false });
    } finally {
      process.env = saved;
    }
    expect([...read].filter((name) => !/^AWS_(LAMBDA_|EXECUTION_ENV$|SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED$)/.test(name))).toEqual([]);
    expect((await s3.keys("audit")).filter((key) => key.startsWith("from-env/"))).toHaveLength(1);
  });

  it("writes each batch as one gzipped JSON Lines object, keyed by organization, date and hour of its first event", async () => {
    const send = destinationFor(settings(s3.endpoint), secrets);
    await send(batchOf(first));
    await send(batchOf(second));
    const keyOf = (events: LogEvent[]) => {
      const [date, time] = events[0]!.occurredAt.split("T") as [string, string];
      return `logs/invoicing/${ORG_ID}/${date.replaceAll("-", "/")}/${time.slice(0, 2)}/ls_audit-${events[0]!.id}.jsonl.gz`;
    };
    expect((await s3.keys("audit")).filter((key) => key.startsWith("logs/"))).toEqual([keyOf(first), keyOf(second)].sort());
    const object = await s3.object("audit", keyOf(first));
    expect([object.contentType, object.contentEncoding]).toEqual(["application/x-ndjson", "gzip"]);
    expect(object.lines.map((line) => line.id)).toEqual(ids(first));
    expect(object.lines[4]).toEqual(recordOf(first[4]!, "Alert: 80 % of the monthly API quota used"));
    expect((await s3.object("audit", keyOf(second))).lines.map((line) => line.id)).toEqual(ids(second));
  });

  it("names the hour in UTC, and a batch without a prefix from the top", () => {
    const late = requestEvent("req_late", { occurredAt: "2026-12-31T23:59:59.999Z" });
    expect(
      s3ObjectKey(null, { organizationId: "org_b", id: "ls_x-req_late", events: [late, requestEvent("req_next", { occurredAt: "2027-01-01T00:00:00.000Z" })] }),
    ).toBe("invoicing/org_b/2026/12/31/23/ls_x-req_late.jsonl.gz");
    expect(s3ObjectKey("/archive/audit/", { organizationId: "org_b", id: "b", events: [late] })).toBe("archive/audit/invoicing/org_b/2026/12/31/23/b.jsonl.gz");
  });

  it("overwrites the same object when a batch is sent again", async () => {
    const send = destinationFor(settings(s3.endpoint, "retried"), secrets);
    await send(batchOf(first));
    await send(batchOf(first));
    const keys = (await s3.keys("audit")).filter((key) => key.startsWith("retried/"));
    expect(keys).toHaveLength(1);
    expect((await s3.object("audit", keys[0]!)).lines.map((line) => line.id)).toEqual(ids(first));
  });

  it("refuses a missing bucket as not retryable, retries S3's slow-down and errors, and gives up when the signal aborts", async () => {
    const missing = await failure({ kind: "s3", bucket: "nowhere", region: "us-east-1", endpoint: s3.endpoint, prefix: null }, secrets, batchOf(first));
    expect(missing.message).toMatch(/^The bucket “nowhere” does not exist \(404 NoSuchBucket/);
    expect(missing.details.retryable).toBe(false);
    const sink = await started(new HttpSink());
    const slowDown = "<?xml version='1.0' encoding='UTF-8'?><Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message></Error>";
    sink
      .answerNext({ status: 503, body: slowDown, headers: { "content-type": "application/xml" } })
      .answerNext({ status: 500, body: "", headers: { "content-type": "application/xml" } });
    const slow = await failure(settings(sink.url), secrets, batchOf(first));
    expect(slow.message).toBe("S3 did not take the object (503 SlowDown: Please reduce your request rate).");
    expect(slow.details.retryable).toBe(true);
    expect((await failure(settings(sink.url), secrets, batchOf(first))).details).toMatchObject({ status: 500, retryable: true });
    sink.answerNext("hang");
    const startedAt = Date.now();
    const stopped = await failure(settings(sink.url), secrets, abortingAfter(300));
    expect(Date.now() - startedAt).toBeLessThan(5_000);
    expect(stopped.message).toBe("The delivery to S3 was stopped before it answered.");
    expect(stopped.details).toEqual({ status: null, retryable: true });
  });
});

describe("HTTPS", () => {
  const secret = newSigningSecret();
  const secrets: DestinationSecrets = { kind: "https", signingSecret: secret };

  it("sends each batch signed as Standard Webhooks say, its webhook-id the batch's on every attempt", async () => {
    const endpoint = await started(new SignedEndpoint(secret, "/log-events"));
    const send = destinationFor({ kind: "https", url: `${endpoint.url}/log-events` }, secrets);
    await send(batchOf(first));
    await send(batchOf(second));
    await send(batchOf(second));
    expect(endpoint.requests.map((request) => request.headers["webhook-id"])).toEqual(["ls_audit-req_a1", "ls_audit-req_b1", "ls_audit-req_b1"]);
    expect(ids(endpoint.events)).toEqual(ids([...first, ...second, ...second]));
    const body = JSON.parse(endpoint.requests[0]!.body);
    expect(body).toMatchObject({ type: "log_events", data: { stream_id: "ls_audit" } });
    expect(Date.parse(body.timestamp)).toBeGreaterThan(Date.now() - 60_000);
    expect(endpoint.events[0]).toEqual(recordOf(first[0]!, "GET /v1/invoices 200 in 12 ms (key “Billing server” key_live)"));
  });

  it("sends the same events for every stream that carries them, each body whole and its own stream's", async () => {
    const endpoint = await started(new SignedEndpoint(secret));
    const send = destinationFor({ kind: "https", url: endpoint.url }, secrets);
    const events = [requestEvent("req_c1", { data: { key_name: 'Billing 🧾 "server"\u2028' } }), ...first];
    await send({ ...batchOf(events), streamId: "ls_one" });
    await send({ ...batchOf(events), streamId: "ls_two" });
    expect(endpoint.requests.map((request) => JSON.parse(request.body))).toEqual(
      ["ls_one", "ls_two"].map((stream_id) => ({ type: "log_events", timestamp: expect.any(String), data: { stream_id, events: events.map(eventRecord) } })),
    );
    expect(endpoint.events[0]).toMatchObject({ message: 'GET /v1/invoices 200 in 12 ms (key “Billing 🧾 "server"\u2028” key_live)' });
  });

  it("refuses a 4xx as not retryable (a wrong secret, a missing page) but a 408 or 429, and retries a 5xx", async () => {
    const endpoint = await started(new SignedEndpoint(newSigningSecret()));
    const settings: DestinationSettings = { kind: "https", url: endpoint.url };
    const wrongSecret = await failure(settings, secrets, batchOf(first));
    expect(wrongSecret.message).toBe("The endpoint did not take the events (401: invalid signature).");
    expect(wrongSecret.details).toEqual({ status: 401, retryable: false });
    endpoint
      .answerNext({ status: 404 })
      .answerNext({ status: 429 })
      .answerNext({ status: 408 })
      .answerNext({ status: 500 })
      .answerNext({ status: 301, headers: { location: "https://elsewhere.example" } });
    const details = [];
    for (let i = 0; i < 5; i++) details.push((await failure(settings, secrets, batchOf(first))).details);
    expect(details.map((detail) => [detail.status, detail.retryable])).toEqual([
      [404, false],
      [429, true],
      [408, true],
      [500, true],
      [301, false],
    ]);
  });

  it("cuts an endpoint that does not answer at 10 s, to try again", { timeout: 20_000 }, async () => {
    const endpoint = await started(new SignedEndpoint(secret));
    endpoint.answerNext("hang");
    const startedAt = Date.now();
    const error = await failure({ kind: "https", url: endpoint.url }, secrets, batchOf(first));
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(9_900);
    expect(error.message).toBe("The endpoint did not answer within 10 s.");
    expect(error.details).toEqual({ status: null, retryable: true });
  });
});

describe("OpenTelemetry (OTLP/HTTP)", () => {
  const secrets: DestinationSecrets = { kind: "otlp", headers: { Authorization: "Bearer otel-token", "X-Scope-OrgID": "acme" } };
  const required = { authorization: "Bearer otel-token", "x-scope-orgid": "acme" };
  const attribute = (record: OtlpLogRecord, key: string) => record.attributes.find((entry) => entry.key === key)?.value;
  const kvlist = (value: JsonObject | undefined) => (value?.kvlistValue as { values: OtlpKeyValue[] }).values;

  it("exports two batches as ExportLogsServiceRequests with the stream's headers, every record once and in order", async () => {
    const collector = await started(new OtlpCollector(required));
    const send = destinationFor({ kind: "otlp", endpoint: collector.url }, secrets);
    await send(batchOf(first));
    await destinationFor({ kind: "otlp", endpoint: `${collector.url}/v1/logs` }, secrets)(batchOf(second));
    expect(collector.events.map((record) => attribute(record, "log.record.uid"))).toEqual(ids([...first, ...second]).map((id) => ({ stringValue: id })));
    expect(collector.resources[0]).toEqual({ attributes: [{ key: "service.name", value: { stringValue: "invoicing" } }] });
    const [ok, refused, failed, activity, alert] = collector.events;
    expect(ok!.timeUnixNano).toBe(`${Date.parse(first[0]!.occurredAt)}000000`);
    expect(ok!.scope).toEqual({ name: "invoicing.log-streams" });
    expect([ok, refused, failed, activity, alert].map((record) => [record!.severityNumber, record!.severityText, record!.eventName])).toEqual([
      [9, "INFO", "invoicing.request"],
      [13, "WARN", "invoicing.request"],
      [17, "ERROR", "invoicing.request"],
      [9, "INFO", "invoicing.activity"],
      [13, "WARN", "invoicing.alert"],
    ]);
    expect(refused!.body).toEqual({ stringValue: "POST /v1/invoices 429 rate_limited in 3 ms (key “CI” key_test)" });
    expect(attribute(refused!, "event.name")).toEqual({ stringValue: "invoicing.request" });
    expect(attribute(refused!, "invoicing.livemode")).toEqual({ boolValue: false });
    expect(attribute(refused!, "http.response.status_code")).toEqual({ intValue: "429" });
    expect(kvlist(attribute(refused!, "invoicing.data"))).toContainEqual({ key: "error_code", value: { stringValue: "rate_limited" } });
    expect(attribute(activity!, "invoicing.livemode")).toBeUndefined();
    expect(kvlist(attribute(activity!, "invoicing.data"))).toContainEqual({
      key: "after",
      value: {
        kvlistValue: {
          values: [
            { key: "status", value: { stringValue: "revoked" } },
            { key: "reason", value: { stringValue: "compromised" } },
          ],
        },
      },
    });
  });

  it("reports a partial success as taken and not to be sent again, saying how many records the collector rejected", async () => {
    const collector = await started(new OtlpCollector(required));
    collector.answerNext({ status: 200, body: { partialSuccess: { rejectedLogRecords: "2", errorMessage: "attribute limit exceeded" } } });
    const error = await failure({ kind: "otlp", endpoint: collector.url }, secrets, batchOf(first));
    expect(error.message).toBe("The collector rejected 2 of 5 log records: attribute limit exceeded.");
    expect(error.details).toEqual({ status: 200, retryable: false, taken: true });
  });

  it("retries 429, 502, 503 and 504 as the protocol says, honouring Retry-After, and no other refusal", async () => {
    const collector = await started(new OtlpCollector(required));
    const settings: DestinationSettings = { kind: "otlp", endpoint: collector.url };
    for (const status of [429, 502, 503, 504, 400, 500])
      collector.answerNext({ status, body: { code: 14, message: "unavailable" }, headers: { "retry-after": "3" } });
    const details = [];
    for (let i = 0; i < 6; i++) details.push((await failure(settings, secrets, batchOf(first))).details);
    expect(details).toEqual([
      { status: 429, retryable: true, retryAfterMs: 3000 },
      { status: 502, retryable: true, retryAfterMs: 3000 },
      { status: 503, retryable: true, retryAfterMs: 3000 },
      { status: 504, retryable: true, retryAfterMs: 3000 },
      { status: 400, retryable: false },
      { status: 500, retryable: false },
    ]);
    const unauthorized = await failure(settings, { kind: "otlp", headers: {} }, batchOf(first));
    expect(unauthorized.message).toBe("The collector refused the stream's headers (401: Unauthenticated).");
    expect(unauthorized.details.retryable).toBe(false);
  });
});

describe("every destination", () => {
  const kinds = (url: string): [string, DestinationSettings, DestinationSecrets][] => [
    ["datadog", { kind: "datadog", site: "datadoghq.com", intakeUrl: `${url}/api/v2/logs` }, { kind: "datadog", apiKey: API_KEY }],
    ["splunk", { kind: "splunk", url }, { kind: "splunk", token: HEC_TOKEN }],
    ["s3", { kind: "s3", bucket: "audit", region: "us-east-1", endpoint: url, prefix: null }, { kind: "s3", ...S3RVER_CREDENTIALS }],
    ["https", { kind: "https", url }, { kind: "https", signingSecret: newSigningSecret() }],
    ["otlp", { kind: "otlp", endpoint: url }, { kind: "otlp", headers: {} }],
  ];

  it("refuses this machine's address without WEBHOOK_ALLOW_PRIVATE, before connecting: for good when written as an address, to retry when a name resolves there", async () => {
    const sink = await started(new HttpSink());
    const port = new URL(sink.url).port;
    process.env.WEBHOOK_ALLOW_PRIVATE = "false";
    try {
      for (const [kind, settings, secrets] of kinds(sink.url)) {
        const literal = await failure(settings, secrets, batchOf(first));
        expect([kind, literal.message, literal.details]).toEqual([
          kind,
          "127.0.0.1 is a private, loopback or reserved address: log streams are sent to public addresses only.",
          { status: null, retryable: false },
        ]);
      }
      for (const [kind, settings, secrets] of kinds(`http://localhost:${port}`)) {
        const named = await failure(settings, secrets, batchOf(first));
        expect([kind, named.message, named.details]).toEqual([
          kind,
          expect.stringMatching(
            /^localhost resolves to (127\.0\.0\.1|::1), a private, loopback or reserved address: log streams are sent to public addresses only\.$/,
          ),
          { status: null, retryable: true },
        ]);
      }
    } finally {
      process.env.WEBHOOK_ALLOW_PRIVATE = "true";
    }
    expect(sink.requests).toEqual([]);
  });

  it("gives up on a service that does not answer once the batch's signal aborts, to try again", async () => {
    const sink = await started(new HttpSink());
    const named = { datadog: "Datadog", splunk: "Splunk", s3: "S3", https: "the endpoint", otlp: "the collector" };
    for (const [kind, settings, secrets] of kinds(sink.url)) {
      sink.answerNext("hang");
      const startedAt = Date.now();
      const error = await failure(settings, secrets, abortingAfter(300));
      expect(Date.now() - startedAt).toBeLessThan(5_000);
      expect([kind, error.message, error.details]).toEqual([
        kind,
        `The delivery to ${named[settings.kind]} was stopped before it answered.`,
        { status: null, retryable: true },
      ]);
    }
    expect(sink.requests).toHaveLength(5);
  });

  it("names this service's public host, never the machine's, as Datadog's hostname and Splunk's host", async () => {
    const intake = await started(new DatadogIntake(API_KEY));
    const hec = await started(new SplunkHec(HEC_TOKEN));
    const datadog = destinationFor({ kind: "datadog", site: "datadoghq.com", intakeUrl: `${intake.url}/api/v2/logs` }, { kind: "datadog", apiKey: API_KEY });
    const splunk = destinationFor({ kind: "splunk", url: hec.url }, { kind: "splunk", token: HEC_TOKEN });
    const saved = process.env.PUBLIC_BASE_URL;
    try {
      delete process.env.PUBLIC_BASE_URL;
      await datadog(batchOf([first[0]!]));
      await splunk(batchOf([first[0]!]));
      process.env.PUBLIC_BASE_URL = "https://invoicing.example.com/";
      await datadog(batchOf([second[0]!]));
      await splunk(batchOf([second[0]!]));
    } finally {
      if (saved === undefined) delete process.env.PUBLIC_BASE_URL;
      else process.env.PUBLIC_BASE_URL = saved;
    }
    expect(intake.events.map((entry) => entry.hostname)).toEqual([undefined, "invoicing.example.com"]);
    expect(hec.events.map((envelope) => envelope.host)).toEqual([undefined, "invoicing.example.com"]);
  });

  it("sends nothing for an empty batch, and refuses secrets of another kind", async () => {
    const sink = await started(new HttpSink());
    for (const [, settings, secrets] of kinds(sink.url)) await destinationFor(settings, secrets)(batchOf([]));
    expect(sink.requests).toEqual([]);
    expect(() => destinationFor({ kind: "https", url: sink.url }, { kind: "datadog", apiKey: API_KEY })).toThrow(
      "A https stream's secrets are a datadog stream's.",
    );
  });

  it("names a host that refuses the connection, to try again", async () => {
    const sink = await started(new HttpSink());
    const url = sink.url;
    await sink.stop();
    receivers.splice(receivers.indexOf(sink), 1);
    for (const [kind, settings, secrets] of kinds(url)) {
      const error = await failure(settings, secrets, batchOf(first));
      expect([kind, error.details]).toEqual([kind, { status: null, retryable: true }]);
      expect(error.cause).toBeDefined();
    }
  });
});
