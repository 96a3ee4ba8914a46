import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, TraceFlags, type Context, type Link, type Span } from "@opentelemetry/api";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { defaultResource, detectResources, envDetector, resourceFromAttributes } from "@opentelemetry/resources";
import { BatchSpanProcessor, NodeTracerProvider, SimpleSpanProcessor, type SpanExporter } from "@opentelemetry/sdk-trace-node";
import {
  ATTR_DB_OPERATION_NAME,
  ATTR_DB_QUERY_TEXT,
  ATTR_DB_SYSTEM_NAME,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_SERVICE_NAME,
  DB_SYSTEM_NAME_VALUE_POSTGRESQL,
} from "@opentelemetry/semantic-conventions";
import type { SpanAttributes, Tracing } from "@/core/tracing";
import type { TraceContext } from "@/core/trace-context";

/** The statement's first word ("select", "insert", "with"): its span's name, as the conventions ask for a low-cardinality one. */
function operationOf(text: string): string {
  return /^\s*(\w+)/.exec(text)?.[1]?.toUpperCase() ?? "QUERY";
}

/** Ends `span` after `work`, marking it failed with the error when `work` throws. */
async function endingSpan<T>(span: Span, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    span.recordException(error as Error);
    span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error)?.message });
    throw error;
  } finally {
    span.end();
  }
}

function ownContext(span: Span): TraceContext {
  const { traceId, spanId, traceFlags } = span.spanContext();
  return { traceId, spanId, sampled: (traceFlags & TraceFlags.SAMPLED) === TraceFlags.SAMPLED };
}

/** The caller's trace as the parent context of the request's span. */
function callerContext(parent: TraceContext | null): Context {
  if (!parent) return ROOT_CONTEXT;
  const traceFlags = parent.sampled ? TraceFlags.SAMPLED : TraceFlags.NONE;
  return trace.setSpanContext(ROOT_CONTEXT, { traceId: parent.traceId, spanId: parent.spanId, traceFlags, isRemote: true });
}

/**
 * The service's tracer over OpenTelemetry's Node SDK (docs/operations.md#traces): spans batched
 * and sent over OTLP/HTTP to OTEL_EXPORTER_OTLP_ENDPOINT (the exporter reads the OTEL_EXPORTER_OTLP_*
 * settings, the batch processor OTEL_BSP_*, the sampler OTEL_TRACES_SAMPLER), or handed one by one
 * to `exporter` when given (the tests' in-memory exporter). The service is named by
 * OTEL_SERVICE_NAME or OTEL_RESOURCE_ATTRIBUTES, else "invoicing-service".
 */
export function createTracing(options: { exporter?: SpanExporter } = {}): Tracing {
  const resource = defaultResource()
    .merge(resourceFromAttributes({ [ATTR_SERVICE_NAME]: "invoicing-service" }))
    .merge(detectResources({ detectors: [envDetector] }));
  const processor = options.exporter ? new SimpleSpanProcessor(options.exporter) : new BatchSpanProcessor(new OTLPTraceExporter());
  const provider = new NodeTracerProvider({ resource, spanProcessors: [processor] });
  // The global provider, context manager (AsyncLocalStorage) and W3C propagator: Next.js's own spans join the same traces.
  provider.register();
  const tracer = provider.getTracer("invoicing-service");
  const inSpan = <T>(name: string, attributes: SpanAttributes, work: () => Promise<T>, kind = SpanKind.INTERNAL): Promise<T> =>
    tracer.startActiveSpan(name, { kind, attributes }, (span) => endingSpan(span, work));
  return {
    inRequestSpan: (name, parent, attributes, work) =>
      tracer.startActiveSpan(name, { kind: SpanKind.SERVER, attributes }, callerContext(parent), (span) =>
        endingSpan(span, async () => {
          const status = await work(ownContext(span));
          span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, status);
          if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
        }),
      ),
    inSpan,
    inStatementSpan: (text, work) => {
      if (!trace.getActiveSpan()) return work();
      const operation = operationOf(text);
      const attributes = { [ATTR_DB_SYSTEM_NAME]: DB_SYSTEM_NAME_VALUE_POSTGRESQL, [ATTR_DB_OPERATION_NAME]: operation, [ATTR_DB_QUERY_TEXT]: text };
      return inSpan(operation, attributes, work, SpanKind.CLIENT);
    },
    captureContext: () => context.active(),
    inBatchSpan: (name, callers, attributes, work) => {
      // Items submitted outside any traced work (a maintenance job's) have no span to join.
      const [parent, ...others] = (callers as Context[]).filter((caller) => trace.getSpan(caller));
      if (!parent) return work();
      const links: Link[] = others.map((caller) => ({ context: trace.getSpanContext(caller)! }));
      return tracer.startActiveSpan(name, { attributes, links }, parent, (span) => endingSpan(span, work));
    },
    activeTraceId: () => trace.getActiveSpan()?.spanContext().traceId,
    shutdown: async () => {
      await provider.shutdown();
      trace.disable();
      context.disable();
      propagation.disable();
    },
  };
}
