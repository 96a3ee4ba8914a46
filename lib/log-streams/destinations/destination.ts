import type { DestinationSecrets, DestinationSettings, LogEvent, LogStreamKind } from "@/core/log-streams";

// Defined with the vocabulary, since the schema stores them (db/schema/log-streams.ts).
export type { DestinationSecrets, DestinationSettings } from "@/core/log-streams";

/** One batch's delivery: the events in their order, and what names the batch (an S3 object, a webhook-id). */
export interface Batch {
  streamId: string;
  organizationId: string;
  /** Stable across retries of the same events: `<stream>-<first event id>`. */
  id: string;
  events: LogEvent[];
  signal: AbortSignal;
}

/**
 * A destination that did not take a batch: `retryable` unless retrying cannot help (a refused
 * credential, a 400 for our format). `taken`: it took the batch but for some events, and sending it
 * again would repeat the rest (OTLP's partial success): the stream moves on, saying so.
 */
export class DeliveryError extends Error {
  override readonly name = "DeliveryError";
  constructor(
    message: string,
    /** `retryAfterMs`: how long the destination asked us to wait (a 429's or 503's Retry-After), when it said. */
    readonly details: { status: number | null; retryable: boolean; retryAfterMs?: number; taken?: boolean },
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** Sends a batch, resolving when the destination took all of it, throwing a DeliveryError otherwise. */
export type Destination = (batch: Batch) => Promise<void>;

export interface DestinationOf<Kind extends LogStreamKind> {
  settings: Extract<DestinationSettings, { kind: Kind }>;
  secrets: Extract<DestinationSecrets, { kind: Kind }>;
}
