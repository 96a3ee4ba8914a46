import "server-only";
import type { z } from "zod";
import { LOG_STREAMS_MAX, type DestinationSecrets, type DestinationSettings, type LogEvent } from "@/core/log-streams";
import { newId } from "@/core/ids";
import { logStreamCredentials } from "@/core/sealed-secret";
import { countLogStreams, deleteLogStream, lockLogStream } from "@/db/queries/log-stream-settings";
import { lockOrganization } from "@/db/queries/organizations";
import type { ActionContext, Change } from "@/lib/action";
import { UserFacingError } from "@/lib/errors";
import { addressProblem } from "@/lib/webhooks/address-guard";
import { DeliveryError, destinationFor } from "./destinations";
import { destinationSummary } from "./labels";
import type { createLogStreamInput, logStreamInput, setLogStreamPausedInput } from "./input";
import { createLogStream, setLogStreamPaused } from "./streams";

/**
 * The changes the log streams page makes (docs/features/log-streams.md#the-page), as the action
 * wrapper runs them: each in its transaction, each with its entry in the activity history.
 */

const NOT_FOUND = "This log stream was not found.";
/** How long "Send test event" waits for the destination before saying it did not answer. */
const TEST_TIMEOUT_MS = 10_000;

const targetOf = (stream: { id: string; name: string }) => ({ type: "log_stream" as const, id: stream.id, name: stream.name });

async function streamOf(ctx: ActionContext, streamId: string) {
  const stream = await lockLogStream(ctx.tx, ctx.orgId, streamId);
  if (!stream) throw new UserFacingError(NOT_FOUND);
  return stream;
}

/** The address a person gave for the destination, by the form's field it came from; none for Datadog's and AWS's own. */
function givenAddress(settings: DestinationSettings): { field: string; url: string } | null {
  switch (settings.kind) {
    case "datadog":
      return settings.intakeUrl ? { field: "intakeUrl", url: settings.intakeUrl } : null;
    case "s3":
      return settings.endpoint ? { field: "endpoint", url: settings.endpoint } : null;
    case "otlp":
      return { field: "endpoint", url: settings.endpoint };
    default:
      return { field: "url", url: settings.url };
  }
}

/**
 * A new stream: its destination's address passes the webhooks' SSRF guard, and the organization
 * has room for it. The organization's row lock keeps two concurrent additions from both passing the maximum.
 */
export async function addStream(
  { name, settings, secrets, sources, mode }: z.output<typeof createLogStreamInput>,
  ctx: ActionContext,
): Promise<Change<{ id: string }>> {
  const given = givenAddress(settings);
  const problem = given ? await addressProblem(new URL(given.url).hostname) : null;
  if (given && problem) throw new UserFacingError("Check the highlighted fields.", { [given.field]: [problem] });
  await lockOrganization(ctx.tx, ctx.orgId);
  if ((await countLogStreams(ctx.tx, ctx.orgId)) >= LOG_STREAMS_MAX)
    throw new UserFacingError(`An organization can have at most ${LOG_STREAMS_MAX} log streams. Delete one you no longer use first.`);
  const { id } = await createLogStream(ctx.tx, ctx.orgId, { name, settings, secrets, sources, mode }, ctx.userId);
  return {
    data: { id },
    activity: {
      action: "log_stream.created",
      target: targetOf({ id, name }),
      after: { destination: settings.kind, address: destinationSummary(settings), sources: sources.join(", "), mode },
    },
  };
}

export async function pauseOrResumeStream(
  { streamId, paused }: z.output<typeof setLogStreamPausedInput>,
  ctx: ActionContext,
): Promise<Change<{ paused: boolean }>> {
  const stream = await streamOf(ctx, streamId);
  if ((stream.pausedAt !== null) === paused) throw new UserFacingError(paused ? "This stream is already paused." : "This stream is not paused.");
  await setLogStreamPaused(ctx.tx, ctx.orgId, stream.id, paused);
  return {
    data: { paused },
    activity: { action: paused ? "log_stream.paused" : "log_stream.resumed", target: targetOf(stream), before: { paused: !paused }, after: { paused } },
  };
}

export async function removeStream({ streamId }: z.output<typeof logStreamInput>, ctx: ActionContext): Promise<Change<{ id: string }>> {
  const stream = await streamOf(ctx, streamId);
  await deleteLogStream(ctx.tx, { id: stream.id, orgId: ctx.orgId });
  return {
    data: { id: stream.id },
    activity: { action: "log_stream.deleted", target: targetOf(stream), before: { destination: stream.kind, address: destinationSummary(stream.settings) } },
  };
}

/**
 * "Send test event": one event of type `test` straight to the destination, outside the stream's
 * cursors, once the history has the attempt; the answer says whether the destination took it.
 */
export async function sendStreamTestEvent(
  { streamId }: z.output<typeof logStreamInput>,
  ctx: ActionContext,
): Promise<Change<{ eventId: string }, { eventId: string; delivered: true }>> {
  const stream = await streamOf(ctx, streamId);
  const secrets = JSON.parse(logStreamCredentials.open(stream.sealedSecrets)) as DestinationSecrets;
  const event: LogEvent = {
    id: newId("lst"),
    type: "test",
    occurredAt: new Date().toISOString(),
    organizationId: ctx.orgId,
    livemode: stream.mode === "live",
    data: { stream_id: stream.id, stream_name: stream.name, message: `A test event from the Invoicing dashboard for the log stream “${stream.name}”.` },
  };
  return {
    data: { eventId: event.id },
    activity: { action: "log_stream.test_sent", target: targetOf(stream), after: { event: event.id } },
    afterCommit: async () => {
      const send = destinationFor(stream.settings, secrets);
      try {
        await send({
          streamId: stream.id,
          organizationId: ctx.orgId,
          id: `${stream.id}-${event.id}`,
          events: [event],
          signal: AbortSignal.timeout(TEST_TIMEOUT_MS),
        });
      } catch (error) {
        throw new UserFacingError(`The test event was not delivered: ${testFailure(error)}`, undefined, { cause: error });
      }
      return { eventId: event.id, delivered: true };
    },
  };
}

function testFailure(error: unknown): string {
  if (error instanceof DeliveryError) return error.message;
  if (error instanceof Error && error.name === "TimeoutError") return `the destination did not answer within ${TEST_TIMEOUT_MS / 1000} s.`;
  return error instanceof Error ? error.message : String(error);
}
