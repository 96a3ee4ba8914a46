import { describe, expect, it } from "vitest";
import { formatTraceparent, parseTraceparent, untracedSpan } from "@/core/trace-context";

const TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
const SPAN = "00f067aa0ba902b7";

describe("a caller's traceparent (W3C Trace Context)", () => {
  it("is read with its sampled flag", () => {
    expect(parseTraceparent(`00-${TRACE}-${SPAN}-01`)).toEqual({ traceId: TRACE, spanId: SPAN, sampled: true });
    expect(parseTraceparent(`00-${TRACE}-${SPAN}-00`)).toEqual({ traceId: TRACE, spanId: SPAN, sampled: false });
    // Flags beyond "sampled" are not ours to read.
    expect(parseTraceparent(` 00-${TRACE}-${SPAN}-03 `)?.sampled).toBe(true);
  });

  it("of a later version is read as version 00 reads it, extra fields and all", () => {
    expect(parseTraceparent(`01-${TRACE}-${SPAN}-01-whatever-comes`)).toEqual({ traceId: TRACE, spanId: SPAN, sampled: true });
  });

  it.each([
    ["absent", undefined],
    ["empty", ""],
    ["version ff", `ff-${TRACE}-${SPAN}-01`],
    ["version 00 with more fields", `00-${TRACE}-${SPAN}-01-extra`],
    ["an all-zero trace id", `00-${"0".repeat(32)}-${SPAN}-01`],
    ["an all-zero span id", `00-${TRACE}-${"0".repeat(16)}-01`],
    ["upper-case hex", `00-${TRACE.toUpperCase()}-${SPAN}-01`],
    ["a short trace id", `00-${TRACE.slice(1)}-${SPAN}-01`],
    ["no flags", `00-${TRACE}-${SPAN}`],
  ])("is ignored when %s", (_, header) => {
    expect(parseTraceparent(header)).toBeNull();
  });

  it("is written back in version 00", () => {
    expect(formatTraceparent({ traceId: TRACE, spanId: SPAN, sampled: true })).toBe(`00-${TRACE}-${SPAN}-01`);
    expect(formatTraceparent({ traceId: TRACE, spanId: SPAN, sampled: false })).toBe(`00-${TRACE}-${SPAN}-00`);
  });
});

describe("a request's span while nothing records it", () => {
  it("continues the caller's trace under a span id of its own, keeping the caller's sampling", () => {
    const own = untracedSpan({ traceId: TRACE, spanId: SPAN, sampled: true });
    expect(own).toMatchObject({ traceId: TRACE, sampled: true });
    expect(own.spanId).toMatch(/^[0-9a-f]{16}$/);
    expect(own.spanId).not.toBe(SPAN);
  });

  it("starts an unsampled trace when there is no caller's, new each time", () => {
    const [first, second] = [untracedSpan(null), untracedSpan(null)];
    expect(first).toMatchObject({ traceId: expect.stringMatching(/^[0-9a-f]{32}$/), spanId: expect.stringMatching(/^[0-9a-f]{16}$/), sampled: false });
    expect(second!.traceId).not.toBe(first!.traceId);
    expect(parseTraceparent(formatTraceparent(first!))).toEqual(first);
  });
});
