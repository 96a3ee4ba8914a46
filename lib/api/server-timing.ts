/** The gateway's phases, in the order a request passes them (docs/features/api.md#headers). */
export type GatewayPhase = "admission" | "handler" | "log";

/**
 * Times the phases of one /v1 request for its `Server-Timing` header, as Kong reports its own
 * latency on every answer: a client (or the gateway-latency bench) reads where the server's time
 * went without a trace. Milliseconds to the microsecond.
 */
export class PhaseTimings {
  private readonly phases: [GatewayPhase, number][] = [];

  constructor(private readonly started: number) {}

  async time<T>(phase: GatewayPhase, run: () => Promise<T>): Promise<T> {
    const from = performance.now();
    try {
      return await run();
    } finally {
      this.phases.push([phase, performance.now() - from]);
    }
  }

  /** `admission;dur=0.712, handler;dur=0.154, log;dur=0.531, total;dur=1.602`: total is the gateway's whole time. */
  header(): string {
    const entries = [...this.phases, ["total", performance.now() - this.started] as const];
    return entries.map(([name, ms]) => `${name};dur=${ms.toFixed(3)}`).join(", ");
  }
}
