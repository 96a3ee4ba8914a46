import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLog } from "@/core/log";

// The service's log lines (docs/operations.md#logs), written by pino with the service's options to a stream read back here.
function capture() {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString("utf8").split("\n").filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { log: createLog(destination), lines };
}

describe("a log line", () => {
  it("is one JSON object with an ISO time, the level by name, the message and the fields given", () => {
    const { log, lines } = capture();
    log.info({ requestId: "req_1" }, "request served");
    expect(lines).toEqual([
      expect.objectContaining({
        level: "info",
        msg: "request served",
        requestId: "req_1",
        time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      }),
    ]);
  });

  it("keeps an error's message, stack and cause, and drops the fields that hold values (a statement's parameters)", () => {
    const { log, lines } = capture();
    const cause = Object.assign(new Error("connection reset"), { code: "ECONNRESET" });
    const failure = Object.assign(new Error("Admitting a batch of 2 requests failed", { cause }), {
      query: "select admit($1, $2)",
      parameters: ["ik_live_secretvalue", "a request body"],
    });
    log.error({ err: failure }, "Gateway failure");
    const err = lines[0]!.err as Record<string, unknown>;
    expect(err).toMatchObject({ type: "Error", message: "Admitting a batch of 2 requests failed: connection reset", query: "select admit($1, $2)" });
    expect(err.stack).toEqual(expect.stringContaining("caused by: Error: connection reset"));
    expect(JSON.stringify(lines)).not.toMatch(/secretvalue|a request body/);
  });

  it("is not written below LOG_LEVEL", () => {
    const { log, lines } = capture();
    log.debug("not at info");
    expect(lines).toEqual([]);
  });
});
