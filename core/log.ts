import pino, { type DestinationStream, type Logger } from "pino";
import { activeTracing } from "./tracing";

/**
 * The process's log (docs/operations.md#logs): one JSON line per event on stdout with its time,
 * level, message and fields (a request id, the trace id while tracing, an error with its cause and stack); `LOG_LEVEL` sets
 * the level (info). `npm run dev` prints readable lines instead. Next.js's bundle and the servers'
 * share the one logger through globalThis, as they share the database client.
 */

/** Fields an error may carry that hold values, not descriptions (postgres.js puts a statement's parameters on its errors). */
const VALUE_FIELDS = ["parameters", "args", "body", "headers"];

/** pino's error serializer (message and stack with their causes), less any field that holds values. */
function errorWithoutValues(error: Error): Record<string, unknown> {
  const serialized = pino.stdSerializers.err(error) as unknown as Record<string, unknown>;
  for (const field of VALUE_FIELDS) delete serialized[field];
  return serialized;
}

/** The active span's trace id while the process traces, so a line is found from its trace and back. */
function traceFields(): object {
  const traceId = activeTracing()?.activeTraceId();
  // A new object each time: pino writes the line's own fields into it.
  return traceId ? { traceId } : {};
}

/** A logger as the service's, writing to `destination` (stdout when none). */
export function createLog(destination?: DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level: process.env.LOG_LEVEL ?? "info",
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    serializers: { err: errorWithoutValues },
    mixin: traceFields,
    ...(process.env.NODE_ENV === "development" && !destination ? { transport: { target: "pino-pretty" } } : {}),
  };
  return destination ? pino(options, destination) : pino(options);
}

const LOG = Symbol.for("invoicing.log");
type GlobalWithLog = typeof globalThis & { [LOG]?: Logger };

export const log: Logger = ((globalThis as GlobalWithLog)[LOG] ??= createLog());
