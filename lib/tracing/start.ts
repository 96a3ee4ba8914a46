import { activeTracing, installTracing } from "@/core/tracing";

/** Whether the environment asks for traces: an OTLP endpoint named, and the SDK not turned off. */
export function tracingConfigured(env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.OTEL_SDK_DISABLED === "true") return false;
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
}

/**
 * Installs the process's tracer when the environment asks for one (docs/operations.md#traces).
 * OpenTelemetry is imported here and only here, so a process that does not trace never loads it.
 */
export async function startTracing(): Promise<void> {
  if (!tracingConfigured() || activeTracing()) return;
  const { createTracing } = await import("./open-telemetry");
  installTracing(createTracing());
}

/** Sends the spans still buffered and removes the tracer: a stopping server's last step. */
export async function stopTracing(): Promise<void> {
  const tracing = activeTracing();
  installTracing(null);
  await tracing?.shutdown();
}
