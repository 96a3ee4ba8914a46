import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { destinationSecretsInput, destinationSettingsInput } from "@/lib/log-streams/destinations/input";
import { newSigningSecret } from "@/lib/webhooks/signing-secret";

/** The first message zod gives for `input`, or null when it parses. */
function problem(schema: z.ZodType, input: unknown): string | null {
  const parsed = schema.safeParse(input);
  return parsed.success ? null : (parsed.error.issues[0]?.message ?? "?");
}

const settingsProblem = (input: Record<string, unknown>) => problem(destinationSettingsInput, input);
const secretsProblem = (input: Record<string, unknown>) => problem(destinationSecretsInput, input);

const savedEnv = { ...process.env };
afterEach(() => {
  process.env = { ...savedEnv };
});

describe("a destination's settings", () => {
  it("takes each kind's settings as the form sends them, an empty optional field as null", () => {
    expect(destinationSettingsInput.parse({ kind: "datadog", site: "datadoghq.eu", intakeUrl: "" })).toEqual({
      kind: "datadog",
      site: "datadoghq.eu",
      intakeUrl: null,
    });
    expect(destinationSettingsInput.parse({ kind: "splunk", url: " https://splunk.example.com:8088 " })).toEqual({
      kind: "splunk",
      url: "https://splunk.example.com:8088",
    });
    expect(destinationSettingsInput.parse({ kind: "s3", bucket: "acme-audit.logs", region: "EU-West-3", endpoint: "", prefix: "/audit/api/" })).toEqual({
      kind: "s3",
      bucket: "acme-audit.logs",
      region: "eu-west-3",
      endpoint: null,
      prefix: "audit/api",
    });
    expect(
      destinationSettingsInput.parse({ kind: "s3", bucket: "audit", region: "auto", endpoint: "https://abc.r2.cloudflarestorage.com", prefix: "" }),
    ).toMatchObject({
      region: "auto",
      endpoint: "https://abc.r2.cloudflarestorage.com",
      prefix: null,
    });
    expect(destinationSettingsInput.parse({ kind: "https", url: "https://example.com/log-events" })).toEqual({
      kind: "https",
      url: "https://example.com/log-events",
    });
    expect(destinationSettingsInput.parse({ kind: "otlp", endpoint: "https://otel.example.com:4318" })).toEqual({
      kind: "otlp",
      endpoint: "https://otel.example.com:4318",
    });
  });

  it.each([
    [{ kind: "ftp" }, "Choose where the stream sends its events."],
    [{ kind: "datadog", site: "datadoghq.org", intakeUrl: "" }, "Choose your Datadog site."],
    [{ kind: "datadog", site: "datadoghq.com", intakeUrl: "intake" }, "Enter a full URL, such as https://http-intake.logs.datadoghq.com/api/v2/logs."],
    [{ kind: "splunk", url: "" }, "Enter the HTTP Event Collector's URL."],
    [{ kind: "splunk", url: "http://splunk.example.com:8088" }, "Use an https:// URL: plain http:// is accepted only for localhost during development."],
    [
      { kind: "splunk", url: "https://admin:changeme@splunk.example.com:8088" },
      "Remove the user name and password from the URL: the stream's credentials have fields of their own.",
    ],
    [{ kind: "https", url: "https://example.com/#events" }, "Remove the #fragment: it is never sent to a server."],
    [{ kind: "https", url: `https://example.com/${"a".repeat(2100)}` }, "Use at most 2,048 characters."],
    [{ kind: "otlp", endpoint: "otel:4318" }, "Use an https:// URL."],
    [
      { kind: "s3", bucket: "Acme_Audit", region: "us-east-1", endpoint: "", prefix: "" },
      "A bucket's name has lowercase letters, digits, dots and hyphens only.",
    ],
    [{ kind: "s3", bucket: "ab", region: "us-east-1", endpoint: "", prefix: "" }, "A bucket's name is 3 to 63 characters long."],
    [{ kind: "s3", bucket: "-audit", region: "us-east-1", endpoint: "", prefix: "" }, "A bucket's name begins and ends with a letter or a digit."],
    [{ kind: "s3", bucket: "acme..audit", region: "us-east-1", endpoint: "", prefix: "" }, "A bucket's name has no two dots in a row."],
    [{ kind: "s3", bucket: "192.168.5.4", region: "us-east-1", endpoint: "", prefix: "" }, "A bucket's name is not an IP address."],
    [{ kind: "s3", bucket: "xn--audit", region: "us-east-1", endpoint: "", prefix: "" }, "That name is reserved by S3: check the bucket's name."],
    [{ kind: "s3", bucket: "audit-s3alias", region: "us-east-1", endpoint: "", prefix: "" }, "That name is reserved by S3: check the bucket's name."],
    [{ kind: "s3", bucket: "audit", region: "auto", endpoint: "", prefix: "" }, "Enter the bucket's AWS region, such as us-east-1."],
    [{ kind: "s3", bucket: "audit", region: "", endpoint: "", prefix: "" }, "Enter the bucket's region, such as us-east-1."],
    [
      { kind: "s3", bucket: "audit", region: "EU WEST", endpoint: "https://s3.example.com", prefix: "" },
      "Enter the region the service names, such as us-east-1 or auto.",
    ],
    [
      { kind: "s3", bucket: "audit", region: "us-east-1", endpoint: "", prefix: "audit logs" },
      "Use letters, digits and ! - _ . * ' ( ) in the prefix, with / between folders.",
    ],
    [
      { kind: "s3", bucket: "audit", region: "us-east-1", endpoint: "", prefix: "a//b" },
      "Write the prefix as folders between single slashes, without . or .. folders.",
    ],
    [
      { kind: "s3", bucket: "audit", region: "us-east-1", endpoint: "", prefix: "a/../b" },
      "Write the prefix as folders between single slashes, without . or .. folders.",
    ],
  ])("refuses %j: %s", (input, message) => {
    expect(settingsProblem(input)).toBe(message);
  });

  it("takes plain http to this machine only while developing, or where private addresses are allowed", () => {
    Object.assign(process.env, { NODE_ENV: "development", WEBHOOK_ALLOW_PRIVATE: "false" });
    expect(settingsProblem({ kind: "otlp", endpoint: "http://localhost:4318" })).toBeNull();
    Object.assign(process.env, { NODE_ENV: "production" });
    expect(settingsProblem({ kind: "otlp", endpoint: "http://localhost:4318" })).toBe(
      "Use an https:// URL: plain http:// is accepted only for localhost during development.",
    );
    Object.assign(process.env, { WEBHOOK_ALLOW_PRIVATE: "true" });
    expect(settingsProblem({ kind: "otlp", endpoint: "http://127.0.0.1:4318" })).toBeNull();
  });
});

describe("a destination's secrets", () => {
  it("takes each kind's credentials, trimmed", () => {
    expect(destinationSecretsInput.parse({ kind: "datadog", apiKey: " 0123456789ABCDEF0123456789abcdef\n" })).toEqual({
      kind: "datadog",
      apiKey: "0123456789ABCDEF0123456789abcdef",
    });
    expect(destinationSecretsInput.parse({ kind: "splunk", token: "12345678-1234-1234-1234-123456789012" })).toMatchObject({
      token: "12345678-1234-1234-1234-123456789012",
    });
    expect(
      destinationSecretsInput.parse({ kind: "s3", accessKeyId: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY" }),
    ).toMatchObject({ accessKeyId: "AKIAIOSFODNN7EXAMPLE" });
    const signingSecret = newSigningSecret();
    expect(destinationSecretsInput.parse({ kind: "https", signingSecret })).toEqual({ kind: "https", signingSecret });
  });

  it("reads an OTLP stream's headers from the form's lines, or takes them as an object; none is fine", () => {
    expect(destinationSecretsInput.parse({ kind: "otlp", headers: "Authorization: Bearer abc:def\n\n  X-Scope-OrgID :acme  \n" })).toEqual({
      kind: "otlp",
      headers: { Authorization: "Bearer abc:def", "X-Scope-OrgID": "acme" },
    });
    expect(destinationSecretsInput.parse({ kind: "otlp", headers: { "api-key": "k" } })).toEqual({ kind: "otlp", headers: { "api-key": "k" } });
    expect(destinationSecretsInput.parse({ kind: "otlp", headers: "" })).toEqual({ kind: "otlp", headers: {} });
    expect(destinationSecretsInput.parse({ kind: "otlp" })).toEqual({ kind: "otlp", headers: {} });
  });

  it.each([
    [{ kind: "datadog", apiKey: "" }, "Paste the API key."],
    [
      { kind: "datadog", apiKey: "0123456789abcdef0123456789abcdef01234567" },
      "A Datadog API key is 32 characters, 0–9 and a–f (an application key is longer).",
    ],
    [{ kind: "datadog", apiKey: "0123456789abcdef 0123456789abcdef" }, "Paste the API key without spaces or other characters around it."],
    [{ kind: "splunk", token: "short" }, "That is too short for the HEC token."],
    [{ kind: "splunk", token: "x".repeat(300) }, "That is too long for the HEC token."],
    [{ kind: "s3", accessKeyId: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "" }, "Paste the secret access key."],
    [
      { kind: "s3", accessKeyId: "AKIA IOSF", secretAccessKey: "wJalrXUtnFEMI/K7MDENG" },
      "Paste the access key ID without spaces or other characters around it.",
    ],
    [{ kind: "https", signingSecret: "secret" }, "A signing secret is whsec_ and base64."],
    [{ kind: "otlp", headers: "Authorization Bearer abc" }, "“Authorization Bearer abc” is not a header name: write one header a line, as Name: value."],
    [{ kind: "otlp", headers: "Content-Type: text/plain" }, "The stream sets Content-Type itself: remove it."],
    [{ kind: "otlp", headers: "Host: collector" }, "The stream sets Host itself: remove it."],
    [{ kind: "otlp", headers: "Authorization:" }, "Give Authorization a value."],
    [{ kind: "otlp", headers: "X-Key: a\nx-key: b" }, "x-key is there twice: keep one."],
    [{ kind: "otlp", headers: "X-Key: café" }, "X-Key's value has characters a header cannot carry: use printable ASCII."],
    [{ kind: "otlp", headers: `X-Key: ${"a".repeat(4097)}` }, "X-Key's value is longer than 4,096 characters."],
    [{ kind: "otlp", headers: Array.from({ length: 21 }, (_, i) => `X-${i}: v`).join("\n") }, "Send at most 20 headers."],
    [{ kind: "otlp", headers: "x".repeat(100_000) }, "Send at most 20 headers, each value at most 4,096 characters."],
    [{ kind: "otlp", headers: { "X-Key": 1 } }, "Give each header a text value."],
  ])("refuses %j: %s", (input, message) => {
    expect(secretsProblem(input)).toBe(message);
  });
});
