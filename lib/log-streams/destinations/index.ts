import type { LogStreamKind } from "@/core/log-streams";
import { datadogDestination } from "./datadog";
import type { Destination, DestinationOf, DestinationSecrets, DestinationSettings } from "./destination";
import { httpsDestination } from "./https";
import { otlpDestination } from "./otlp";
import { s3Destination } from "./s3";
import { splunkDestination } from "./splunk";

export { DeliveryError, type Batch, type Destination, type DestinationSecrets, type DestinationSettings } from "./destination";

const DESTINATIONS: { [Kind in LogStreamKind]: (destination: DestinationOf<Kind>) => Destination } = {
  datadog: datadogDestination,
  splunk: splunkDestination,
  s3: s3Destination,
  https: httpsDestination,
  otlp: otlpDestination,
};

/**
 * The destination a stream's settings and secrets name (docs/features/log-streams.md#destinations).
 * An empty batch sends nothing: no destination wants an empty request (OTLP says so, HEC answers
 * it "No data").
 */
export function destinationFor(settings: DestinationSettings, secrets: DestinationSecrets): Destination {
  if (settings.kind !== secrets.kind) throw new Error(`A ${settings.kind} stream's secrets are a ${secrets.kind} stream's.`);
  const send = (DESTINATIONS[settings.kind] as (destination: { settings: DestinationSettings; secrets: DestinationSecrets }) => Destination)({
    settings,
    secrets,
  });
  return async (batch) => {
    if (batch.events.length > 0) await send(batch);
  };
}
