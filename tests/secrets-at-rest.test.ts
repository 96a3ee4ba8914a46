import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSlackChannelAction } from "@/app/[orgSlug]/settings/alerts/actions";
import { beginTotpSetupAction } from "@/app/settings/security/actions";
import { createWebhookEndpointAction, rotateWebhookSecretAction, sendTestWebhookAction } from "@/app/[orgSlug]/settings/webhooks/actions";
import { getDb } from "@/db";
import { jobQueue } from "@/db/job-queue";
import { rowsOf } from "@/db/rows";
import { alerts, logStreams, ssoConnections, totpFactors, webhookEndpoints } from "@/db/schema";
import { createLogStream } from "@/lib/log-streams/streams";
import { storeSsoConnection } from "@/lib/sso/connection-changes";
import { attemptDelivery } from "@/lib/webhooks/worker";
import { createTeam, form } from "./helpers/factories";
import { actAs } from "./helpers/session";
import { receiver, stopReceivers } from "./helpers/webhook-receiver";

// Credentials the service must read back are stored sealed (docs/security.md#secrets-at-rest): a
// copy of the database holds none of them in clear. Receivers on 127.0.0.1 need WEBHOOK_ALLOW_PRIVATE.
process.env.WEBHOOK_ALLOW_PRIVATE = "true";

type Team = Awaited<ReturnType<typeof createTeam>>;

/** What one kind of credential left in the database: values a dump must not hold, and values it must (its sealed rows, so they are in the dump). */
interface Stored {
  secrets: string[];
  stored: string[];
}

const must = <T extends { ok: boolean }>(result: T): Extract<T, { ok: true }> => {
  if (!result.ok) throw new Error(JSON.stringify(result));
  return result as Extract<T, { ok: true }>;
};

/** A webhook endpoint's signing secret as shown at creation, and after a roll both the new one and the previous one, which still signs. */
async function signingSecrets(team: Team): Promise<Stored> {
  actAs(team.admin.id);
  const added = must(await createWebhookEndpointAction(null, form({ orgId: team.org.id, url: "http://127.0.0.1:9/hooks", eventTypes: "key.created" })));
  const rolled = must(await rotateWebhookSecretAction(null, { orgId: team.org.id, endpointId: added.data.id }));
  const secrets = [added.data.secret, rolled.data.secret];
  const [row] = await getDb().select().from(webhookEndpoints).where(eq(webhookEndpoints.id, added.data.id));
  // The base64 too, as a receiver's library would take it without its prefix.
  return { secrets: [...secrets, ...secrets.map((secret) => secret.slice("whsec_".length))], stored: [row!.signingSecret, row!.previousSigningSecret!] };
}

/** A Slack channel's URL; the channel then fails for 5 days and is turned off, with an alert naming it. */
async function slackUrl(team: Team): Promise<Stored> {
  actAs(team.admin.id);
  const slack = await receiver();
  slack.answer = () => 500;
  const url = `${slack.url}/T0AAA/B0BBB/verysecrettoken9Qf`;
  const channel = must(await createSlackChannelAction(null, form({ orgId: team.org.id, url, description: "#alerts" })));
  await getDb()
    .update(webhookEndpoints)
    .set({ failingSince: new Date(Date.now() - 6 * 86_400_000) })
    .where(eq(webhookEndpoints.id, channel.data.id));
  const sent = must(await sendTestWebhookAction(null, { orgId: team.org.id, endpointId: channel.data.id }));
  expect(await attemptDelivery({ deliveryId: sent.data.deliveryId, since: new Date(0).toISOString() }, { lastRetry: true })).toBe("failed");
  // It was sent to the URL itself, and the alert that turned it off names its hint.
  expect(slack.received.map((request) => request.path)).toEqual(["/hooks/T0AAA/B0BBB/verysecrettoken9Qf"]);
  const [alert] = await getDb().select().from(alerts).where(eq(alerts.orgId, team.org.id));
  expect(alert).toMatchObject({ kind: "webhook_disabled", details: { url: channel.data.hint } });
  const [row] = await getDb().select().from(webhookEndpoints).where(eq(webhookEndpoints.id, channel.data.id));
  // Of the token, only the hint's last four characters may be anywhere.
  return { secrets: [url, "verysecrettoken", "/T0AAA/B0BBB/"], stored: [row!.sealedUrl!, channel.data.hint] };
}

/** An authenticator app's shared secret, from the setup's first step. */
async function totpSecret(team: Team): Promise<Stored> {
  actAs(team.owner.id);
  const begun = must(await beginTotpSetupAction(null, {}));
  const [row] = await getDb().select().from(totpFactors).where(eq(totpFactors.userId, team.owner.id));
  return { secrets: [begun.data.secret], stored: [row!.sealedSecret] };
}

/** A log stream's credentials, one stream per kind that has them (docs/features/log-streams.md#credentials). */
async function logStreamCredentials(team: Team): Promise<Stored> {
  const secrets = {
    datadog: "dd0123456789abcdef0123456789abcd",
    splunk: "5a1b2c3d-hec-token-9e8f7a6b5c4d",
    s3: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    https: `whsec_${Buffer.from("a log stream's signing secret!").toString("base64")}`,
    otlp: "Bearer otlp-collector-token-4f2a",
  };
  const inputs = [
    { settings: { kind: "datadog", site: "datadoghq.eu", intakeUrl: null }, secrets: { kind: "datadog", apiKey: secrets.datadog } },
    { settings: { kind: "splunk", url: "https://splunk.example.com:8088" }, secrets: { kind: "splunk", token: secrets.splunk } },
    {
      settings: { kind: "s3", bucket: "audit", region: "eu-west-1", endpoint: null, prefix: null },
      secrets: { kind: "s3", accessKeyId: "AKIAEXAMPLE", secretAccessKey: secrets.s3 },
    },
    { settings: { kind: "https", url: "https://siem.example.com/audit" }, secrets: { kind: "https", signingSecret: secrets.https } },
    { settings: { kind: "otlp", endpoint: "https://otel.example.com" }, secrets: { kind: "otlp", headers: { Authorization: secrets.otlp } } },
  ] as const;
  for (const input of inputs) await createLogStream(getDb(), team.org.id, { name: input.settings.kind, ...input, sources: ["requests"], mode: "live" }, null);
  const rows = await getDb().select().from(logStreams).where(eq(logStreams.orgId, team.org.id));
  return { secrets: Object.values(secrets), stored: rows.map((row) => row.sealedSecrets) };
}

/** An organization's OpenID Connect client secret (docs/features/sso.md#the-connection), stored as saving the connection stores it once the issuer answered. */
async function ssoClientSecret(team: Team): Promise<Stored> {
  const secret = "sso-client-secret-Wk3pR8vN2qLx";
  await storeSsoConnection(
    getDb(),
    team.org.id,
    { issuer: "https://login.example.com", clientId: "invoicing", clientSecret: secret, defaultRole: "member" },
    null,
  );
  const [row] = await getDb().select().from(ssoConnections).where(eq(ssoConnections.orgId, team.org.id));
  return { secrets: [secret], stored: [row!.sealedClientSecret] };
}

/** Every credential the service keeps, made through the path that stores it: one line each. */
const CREDENTIALS: Record<string, (team: Team) => Promise<Stored>> = {
  "webhook signing secrets": signingSecrets,
  "Slack channel URL": slackUrl,
  "authenticator secret": totpSecret,
  "log stream credentials": logStreamCredentials,
  "SSO client secret": ssoClientSecret,
};

const run = promisify(execFile);

/**
 * The whole database as text: on PostgreSQL `pg_dump` of the test's own database (schema and data,
 * every schema); on PGlite, which has no pg_dump, every table's rows in every schema.
 */
async function dumpDatabase(): Promise<string> {
  if (process.env.DATABASE_URL) return (await run("pg_dump", ["--dbname", process.env.DATABASE_URL], { maxBuffer: 256 * 1024 * 1024 })).stdout;
  const tables = rowsOf<{ table_schema: string; table_name: string }>(
    await getDb().execute(
      sql`select table_schema, table_name from information_schema.tables where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema')`,
    ),
  );
  expect(tables.length).toBeGreaterThan(30);
  const dumps = await Promise.all(
    tables.map(async ({ table_schema, table_name }) => {
      const rows = rowsOf<{ row: string }>(
        await getDb().execute(sql`select t::text as row from ${sql.identifier(table_schema)}.${sql.identifier(table_name)} t`),
      );
      return `-- ${table_schema}.${table_name}\n${rows.map((row) => row.row).join("\n")}`;
    }),
  );
  return dumps.join("\n");
}

beforeAll(async () => {
  await jobQueue();
}, 60_000);

afterAll(async () => {
  await stopReceivers();
});

describe("credentials at rest", () => {
  it("leaves none of them in clear in a dump of the database", async () => {
    const team = await createTeam("pro");
    const stored: [string, Stored][] = [];
    for (const [kind, make] of Object.entries(CREDENTIALS)) stored.push([kind, await make(team)]);
    const dump = await dumpDatabase();
    for (const [kind, { secrets, stored: rows }] of stored) {
      expect({ kind, missingFromTheDump: rows.filter((value) => !dump.includes(value)) }).toEqual({ kind, missingFromTheDump: [] });
      expect({ kind, inClear: secrets.filter((value) => dump.includes(value)) }).toEqual({ kind, inClear: [] });
    }
  });
});
