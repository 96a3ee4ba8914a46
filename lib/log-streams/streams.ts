import type { Mode } from "@/core/enums";
import type { DestinationSecrets, DestinationSettings, LogStreamSource } from "@/core/log-streams";
import { newId } from "@/core/ids";
import type { DbOrTx } from "@/db";
import { currentPositions } from "@/db/queries/log-stream-events";
import { insertLogStream, setPaused } from "@/db/queries/log-streams";
import { logStreamCredentials } from "@/core/sealed-secret";

export interface LogStreamInput {
  name: string;
  settings: DestinationSettings;
  secrets: DestinationSecrets;
  sources: LogStreamSource[];
  mode: Mode;
}

/** The credential a person recognizes the stream's by: its last four characters. */
function hintOf(secrets: DestinationSecrets): string {
  const main = { datadog: "apiKey", splunk: "token", s3: "secretAccessKey", https: "signingSecret", otlp: "" }[secrets.kind];
  const value = main
    ? String((secrets as Record<string, unknown>)[main] ?? "")
    : Object.values((secrets as { headers: Record<string, string> }).headers).join("");
  return value ? `…${value.slice(-4)}` : "";
}

/**
 * A new stream of the organization, carrying what happens from now on (docs/features/log-streams.md#delivery):
 * its cursors start after everything already visible. Its credentials are sealed.
 */
export async function createLogStream(db: DbOrTx, orgId: string, input: LogStreamInput, createdBy: string | null): Promise<{ id: string }> {
  const id = newId("ls");
  const start = await currentPositions(db, orgId);
  await insertLogStream(db, {
    id,
    orgId,
    name: input.name,
    kind: input.settings.kind,
    settings: input.settings,
    sealedSecrets: logStreamCredentials.seal(JSON.stringify(input.secrets)),
    secretHint: hintOf(input.secrets),
    sources: input.sources,
    mode: input.mode,
    createdBy,
    requestsAfter: start.requestsAfter,
    activityAfterTx: start.visibleTx,
    activityAfterId: 0,
    alertsAfterTx: start.visibleTx,
    alertsAfterId: 0,
  });
  return { id };
}

/** Pauses a stream (its cursors stay where they are: nothing is lost) or resumes it, to catch up. */
export async function setLogStreamPaused(db: DbOrTx, orgId: string, id: string, paused: boolean, at = new Date()): Promise<void> {
  await setPaused(db, { id, orgId }, paused ? at : null);
}
