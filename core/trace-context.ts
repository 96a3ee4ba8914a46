import { randomHex } from "./random-pool";

/** A W3C trace context (https://www.w3.org/TR/trace-context/): the trace, the span in it, and whether it is being recorded. */
export interface TraceContext {
  /** 32 lowercase hex digits, not all zero. */
  traceId: string;
  /** 16 lowercase hex digits, not all zero. */
  spanId: string;
  sampled: boolean;
}

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;
const ALL_ZERO = /^0+$/;

/**
 * A caller's `traceparent` header, or null when it is absent or invalid (which the standard says
 * to ignore: the request then starts a trace of its own). A version above 00 is read as 00 reads
 * it, as the standard asks; version ff and anything after a version 00 header are invalid.
 */
export function parseTraceparent(header: string | undefined): TraceContext | null {
  const match = header ? TRACEPARENT.exec(header.trim()) : null;
  if (!match) return null;
  const [, version, traceId, spanId, flags, rest] = match;
  if (version === "ff" || (version === "00" && rest !== undefined)) return null;
  if (ALL_ZERO.test(traceId!) || ALL_ZERO.test(spanId!)) return null;
  return { traceId: traceId!, spanId: spanId!, sampled: (parseInt(flags!, 16) & 1) === 1 };
}

/** The `traceparent` header naming `context`. */
export function formatTraceparent(context: TraceContext): string {
  return `00-${context.traceId}-${context.spanId}-${context.sampled ? "01" : "00"}`;
}

/**
 * A span of the request's own while no tracer records it: the caller's trace continued when it
 * sent one, else a new trace, unsampled (nothing of it is recorded here).
 */
export function untracedSpan(parent: TraceContext | null): TraceContext {
  const ids = randomHex(24);
  return { traceId: parent?.traceId ?? ids.slice(16), spanId: ids.slice(0, 16), sampled: parent?.sampled ?? false };
}
