import { describe, expect, it } from "vitest";
import { BASE62_ALPHABET } from "@/core/base62";
import { API_KEY_LENGTH, apiKeyHint, generateApiKey, hashApiKey, parseApiKey } from "./format";

describe("API key format", () => {
  it("generates 10,000 distinct keys that all parse", () => {
    const keys = new Set<string>();
    for (let i = 0; i < 10_000; i++) {
      const key = generateApiKey();
      expect(key).toMatch(/^ik_[0-9A-Za-z]{32}$/);
      expect(parseApiKey(key)).toEqual({ ok: true });
      keys.add(key);
    }
    expect(keys.size).toBe(10_000);
  });

  it("fails the checksum when any one character after the prefix changes", () => {
    const key = generateApiKey();
    for (let position = 3; position < API_KEY_LENGTH; position++) {
      const original = key[position]!;
      const replacement = BASE62_ALPHABET[(BASE62_ALPHABET.indexOf(original) + 1 + position) % 62]!;
      const changed = key.slice(0, position) + replacement + key.slice(position + 1);
      expect(parseApiKey(changed)).toEqual({ ok: false, reason: "checksum" });
    }
  });

  it("refuses a wrong prefix, length or alphabet before the checksum", () => {
    const key = generateApiKey();
    expect(parseApiKey(`sk_${key.slice(3)}`)).toEqual({ ok: false, reason: "prefix" });
    expect(parseApiKey(key.slice(0, -1))).toEqual({ ok: false, reason: "length" });
    expect(parseApiKey(`${key}0`)).toEqual({ ok: false, reason: "length" });
    expect(parseApiKey(`${key.slice(0, 10)}-${key.slice(11)}`)).toEqual({ ok: false, reason: "alphabet" });
    expect(parseApiKey("")).toEqual({ ok: false, reason: "prefix" });
  });

  it("zero-pads the checksum to six characters", () => {
    // Over many keys some CRC32 values are small enough to need padding; all keep the length.
    for (let i = 0; i < 2_000; i++) expect(generateApiKey()).toHaveLength(API_KEY_LENGTH);
  });

  it("stores a SHA-256 hex digest and shows a hint of the first and last four characters", () => {
    const key = generateApiKey();
    expect(hashApiKey(key)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashApiKey(key)).not.toContain(key.slice(3));
    expect(apiKeyHint(key)).toBe(`ik_${key.slice(3, 7)}…${key.slice(-4)}`);
  });
});
