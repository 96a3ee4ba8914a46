import type { TraceContext } from "./trace-context";

/** Span attributes: OpenTelemetry's primitive values. */
export type SpanAttributes = Record<string, string | number | boolean>;

/**
 * What the code asks of a tracer (docs/operations.md#traces). The OpenTelemetry implementation
 * (lib/tracing/open-telemetry.ts) is loaded only when OTEL_EXPORTER_OTLP_ENDPOINT is set; until
 * one is installed every helper below runs its work as it is, so an untraced process loads none
 * of OpenTelemetry and pays one variable read per span it would have opened.
 */
export interface Tracing {
  /** Runs a /v1 request in its server span, a child of the caller's `parent`; `work` answers with the status. */
  inRequestSpan(name: string, parent: TraceContext | null, attributes: SpanAttributes, work: (own: TraceContext) => Promise<number>): Promise<void>;
  /** Runs `work` in a child span of the active one (a root span when none is). */
  inSpan<T>(name: string, attributes: SpanAttributes, work: () => Promise<T>): Promise<T>;
  /** The statement's span, under the active span only: a statement outside any traced work opens no trace of its own. */
  inStatementSpan<T>(text: string, work: () => Promise<T>): Promise<T>;
  /** The active context, for a batch that runs later on behalf of several callers. */
  captureContext(): unknown;
  /** Runs a batch in a span under the first caller's context, linked to the others'. */
  inBatchSpan<T>(name: string, callers: unknown[], attributes: SpanAttributes, work: () => Promise<T>): Promise<T>;
  /** The active span's trace id, for log lines. */
  activeTraceId(): string | undefined;
  /** Sends the spans still buffered and unregisters. */
  shutdown(): Promise<void>;
}

// Next.js's bundle and the servers' each have a copy of this module; the process has one tracer.
const TRACING = Symbol.for("invoicing.tracing");
type GlobalWithTracing = typeof globalThis & { [TRACING]?: Tracing | null };

export function activeTracing(): Tracing | null {
  return (globalThis as GlobalWithTracing)[TRACING] ?? null;
}

/** Sets the process's tracer (null: none). */
export function installTracing(tracing: Tracing | null): void {
  (globalThis as GlobalWithTracing)[TRACING] = tracing;
}

// Shared by every span given none: OpenTelemetry copies a span's attributes, never writes into them.
const NO_ATTRIBUTES: SpanAttributes = Object.freeze({});

/** `work` in a span of its own when the process traces. */
export function inSpan<T>(name: string, work: () => Promise<T>, attributes = NO_ATTRIBUTES): Promise<T> {
  const tracing = activeTracing();
  return tracing ? tracing.inSpan(name, attributes, work) : work();
}

/** A database statement in a span of its own when the process traces and the statement runs for traced work. */
export function inStatementSpan<T>(text: string, work: () => Promise<T>): Promise<T> {
  const tracing = activeTracing();
  return tracing ? tracing.inStatementSpan(text, work) : work();
}
