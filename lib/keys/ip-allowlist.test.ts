import { describe, expect, it } from "vitest";
import { allowlistCount, normalizeClientIp, parseAllowlist, parseAllowlistEntry } from "./ip-allowlist";

describe("an allowlist entry", () => {
  it.each([
    ["203.0.113.10", "203.0.113.10"],
    [" 203.0.113.10 ", "203.0.113.10"],
    ["203.0.113.0/24", "203.0.113.0/24"],
    ["203.0.113.10/32", "203.0.113.10"],
    ["0.0.0.0/0", "0.0.0.0/0"],
    ["2001:DB8:0:0:0:0:0:1", "2001:db8::1"],
    ["2001:db8::/32", "2001:db8::/32"],
    ["2001:db8::1/128", "2001:db8::1"],
    ["::/0", "::/0"],
  ])("reads %s as %s", (typed, stored) => {
    expect(parseAllowlistEntry(typed)).toEqual({ ok: true, entry: stored });
  });

  it.each([
    ["localhost", "is not an IP address or range"],
    ["127.1", "is not an IP address or range"],
    ["0x7f.0.0.1", "is not an IP address or range"],
    ["256.1.1.1", "is not an IP address or range"],
    ["203.0.113.0/", "is not an IP address or range"],
    ["203.0.113.0/24/8", "is not an IP address or range"],
    ["203.0.113.0/33", "has a prefix of at most /32"],
    ["2001:db8::/129", "has a prefix of at most /128"],
    ["fe80::1%eth0", "is not an IP address or range"],
    ["203.0.113.10/24", "did you mean 203.0.113.0/24?"],
    ["2001:db8::1/32", "did you mean 2001:db8::/32?"],
    ["::ffff:203.0.113.10", "as the IPv4 address it stands for: 203.0.113.10"],
  ])("refuses %s: %s", (typed, message) => {
    const parsed = parseAllowlistEntry(typed);
    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? "" : parsed.message).toContain(message);
  });
});

describe("a typed allowlist", () => {
  it("splits on lines, commas and spaces, and drops repeats", () => {
    expect(parseAllowlist("203.0.113.10\n10.0.0.0/8, 203.0.113.10/32  2001:db8::1")).toEqual({
      ok: true,
      entries: ["203.0.113.10", "10.0.0.0/8", "2001:db8::1"],
    });
    expect(parseAllowlist("  \n")).toEqual({ ok: true, entries: [] });
  });

  it("says what is wrong with each bad entry, and refuses more than 20", () => {
    expect(parseAllowlist("203.0.113.10, nope, 10.0.0.1/8")).toEqual({
      ok: false,
      messages: [expect.stringContaining("“nope”"), expect.stringContaining("did you mean 10.0.0.0/8?")],
    });
    const many = Array.from({ length: 21 }, (_, i) => `10.0.0.${i}`).join("\n");
    const parsed = parseAllowlist(many);
    expect(parsed.ok ? [] : parsed.messages).toEqual(["Use at most 20 addresses or ranges; a wider range can cover several."]);
  });

  it("counts only valid entries toward the maximum, once each, and says how many are not valid", () => {
    expect(allowlistCount("")).toBeNull();
    expect(allowlistCount("203.0.113.10\n10.0.0.0/8")).toBe("2 of at most 20.");
    expect(allowlistCount("203.0.113.10\nnope\n203.0.113.10/32\n10.0.0.1/8")).toBe("1 of at most 20; 2 entries are not an address or range.");
    expect(allowlistCount("nope")).toBe("0 of at most 20; 1 entry is not an address or range.");
  });

  it("reads at most 21 entries of a long paste", () => {
    const parsed = parseAllowlist(Array.from({ length: 5000 }, () => "bad").join(" "));
    expect(parsed.ok ? 0 : parsed.messages.length).toBe(22);
  });
});

describe("the client's address", () => {
  it.each([
    ["203.0.113.10", "203.0.113.10"],
    ["::ffff:203.0.113.10", "203.0.113.10"],
    ["2001:DB8::0:1", "2001:db8::1"],
    ["fe80::1%eth0", "fe80::1"],
    ["not an address", null],
    ["127.1", null],
    ["", null],
    [undefined, null],
  ])("reads %s as %s", (raw, address) => {
    expect(normalizeClientIp(raw)).toBe(address);
  });
});
