import { describe, expect, it } from "vitest";
import { normalizeClientIp } from "@/lib/keys/ip-allowlist";

describe("normalizeClientIp (the address the allowlist compares)", () => {
  it("gives one canonical form, and null for what is no address", () => {
    expect(normalizeClientIp("203.0.113.10")).toBe("203.0.113.10");
    expect(normalizeClientIp(" ::ffff:203.0.113.10 ")).toBe("203.0.113.10");
    expect(normalizeClientIp("2001:DB8:0:0:0:0:0:5")).toBe("2001:db8::5");
    expect(normalizeClientIp("fe80::1%eth0")).toBe("fe80::1");
    expect(normalizeClientIp("203.0.113.010")).toBeNull();
    expect(normalizeClientIp("not-an-address")).toBeNull();
    expect(normalizeClientIp("")).toBeNull();
    expect(normalizeClientIp(null)).toBeNull();
  });

  it("answers the same when asked again, and past the memo's bound (a proxy's header can name any address)", () => {
    const asked = Array.from({ length: 3000 }, (_, i) => `2001:DB8::${i.toString(16)}`);
    const first = asked.map(normalizeClientIp);
    expect(first[10]).toBe("2001:db8::a");
    expect(asked.map(normalizeClientIp)).toEqual(first);
    expect(normalizeClientIp("::ffff:203.0.113.10")).toBe("203.0.113.10");
    expect(normalizeClientIp("not-an-address")).toBeNull();
  });
});
