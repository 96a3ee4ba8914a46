import { describe, expect, it } from "vitest";
import { randomByte, randomHex } from "@/core/random-pool";
import { untracedSpan } from "@/core/trace-context";

describe("the pooled CSPRNG bytes", () => {
  it("gives hex of the asked length, never the same twice, across refills of its 4 KiB", () => {
    const seen = new Set<string>();
    // 24 bytes at a time does not divide 4,096: some draws fall at a refill.
    for (let i = 0; i < 1_000; i++) {
      const hex = randomHex(24);
      expect(hex).toMatch(/^[0-9a-f]{48}$/);
      seen.add(hex);
    }
    expect(seen.size).toBe(1_000);
  });

  it("spreads its bytes over every value", () => {
    const counts = new Array<number>(256).fill(0);
    for (let i = 0; i < 256 * 200; i++) counts[randomByte()]!++;
    // 200 expected each; a byte that never appears (or a fixed pool) fails.
    expect(Math.min(...counts)).toBeGreaterThan(100);
    expect(Math.max(...counts)).toBeLessThan(320);
  });

  it("gives every untraced answer its own span, and a new trace when none was continued", () => {
    const a = untracedSpan(null);
    const b = untracedSpan(null);
    expect(a.spanId).toMatch(/^[0-9a-f]{16}$/);
    expect(a.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(a.spanId).not.toBe(b.spanId);
    expect(a.traceId).not.toBe(b.traceId);
    expect(untracedSpan(a).traceId).toBe(a.traceId);
  });
});
