import { readFileSync } from "node:fs";
import { crc32 } from "node:zlib";
import { describe, expect, it } from "vitest";
import { BASE62_ALPHABET, encodeBase62 } from "@/core/base62";
import { MODE_VALUES } from "@/core/enums";
import { API_KEY_LENGTHS, API_KEY_PATTERN, API_KEY_PREFIXES, apiKeyHint, generateApiKey, hashApiKey, modeOfApiKey, parseApiKey } from "./format";

/** The patterns docs/security.md and the README give scanners, one per mode. */
const PUBLISHED = { live: String.raw`\bik_[0-9A-Za-z]{32}\b`, test: String.raw`\bik_test_[0-9A-Za-z]{32}\b` };
const matchesOf = (pattern: RegExp | string, text: string) => [...text.matchAll(new RegExp(pattern, "g"))].map((match) => match[0]);
/** A value built by the published checksum rule alone: the CRC-32 of the 26 random characters, in base62, six wide. */
const byPublishedRule = (prefix: string, random: string) => `${prefix}${random}${encodeBase62(crc32(random), 6)}`;

describe.each(MODE_VALUES)("%s API key format", (mode) => {
  const prefix = API_KEY_PREFIXES[mode];

  it("generates 10,000 distinct keys of the mode's prefix that all parse", () => {
    const keys = new Set<string>();
    for (let i = 0; i < 10_000; i++) {
      const key = generateApiKey(mode);
      expect(key.startsWith(prefix) && BASE62_ALPHABET.includes(key[prefix.length]!)).toBe(true);
      expect(key).toHaveLength(API_KEY_LENGTHS[mode]);
      expect(parseApiKey(key)).toEqual({ ok: true });
      expect(modeOfApiKey(key)).toBe(mode);
      keys.add(key);
    }
    expect(keys.size).toBe(10_000);
  });

  it("fails the checksum when any one character after the prefix changes", () => {
    const key = generateApiKey(mode);
    for (let position = prefix.length; position < API_KEY_LENGTHS[mode]; position++) {
      const original = key[position]!;
      const replacement = BASE62_ALPHABET[(BASE62_ALPHABET.indexOf(original) + 1 + position) % 62]!;
      const changed = key.slice(0, position) + replacement + key.slice(position + 1);
      expect(parseApiKey(changed)).toEqual({ ok: false, reason: "checksum" });
    }
  });

  it("refuses a wrong prefix, length or alphabet before the checksum", () => {
    const key = generateApiKey(mode);
    expect(parseApiKey(`sk_${key.slice(3)}`)).toEqual({ ok: false, reason: "prefix" });
    expect(parseApiKey(key.slice(0, -1))).toEqual({ ok: false, reason: "length" });
    expect(parseApiKey(`${key}0`)).toEqual({ ok: false, reason: "length" });
    expect(parseApiKey(`${key.slice(0, 12)}-${key.slice(13)}`)).toEqual({ ok: false, reason: "alphabet" });
    expect(parseApiKey("")).toEqual({ ok: false, reason: "prefix" });
  });

  it("zero-pads the checksum to six characters", () => {
    // Over many keys some CRC32 values are small enough to need padding; all keep the length.
    for (let i = 0; i < 2_000; i++) expect(generateApiKey(mode)).toHaveLength(API_KEY_LENGTHS[mode]);
  });

  it("stores a SHA-256 hex digest and shows a hint of the prefix and the first and last four characters after it", () => {
    const key = generateApiKey(mode);
    expect(hashApiKey(key)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashApiKey(key)).not.toContain(key.slice(prefix.length));
    expect(apiKeyHint(key)).toBe(`${prefix}${key.slice(prefix.length, prefix.length + 4)}…${key.slice(-4)}`);
  });

  it("holds the checksum rule as published", () => {
    expect(parseApiKey(byPublishedRule(prefix, "ABCDEFGHIJKLMNOPQRSTUVWXYZ"))).toEqual({ ok: true });
  });

  it("is found whole, once, by the scanners' pattern and by its mode's published pattern alone", () => {
    const key = generateApiKey(mode);
    const text = `export INVOICING_API_KEY=${key}\n"${key}", x${key} ${key}y`;
    expect(matchesOf(API_KEY_PATTERN, text)).toEqual([key, key]);
    expect(matchesOf(PUBLISHED[mode], text)).toEqual([key, key]);
  });
});

describe("live and test keys apart", () => {
  it("a test key's value is ik_test_ and the same 32 characters a live key has", () => {
    expect(generateApiKey("test")).toMatch(/^ik_test_[0-9A-Za-z]{32}$/);
    expect(generateApiKey("live")).toMatch(/^ik_[0-9A-Za-z]{32}$/);
    expect(API_KEY_LENGTHS).toEqual({ live: 35, test: 40 });
  });

  it("the live pattern finds nothing, not even half, in a test key; the test pattern nothing in a live key", () => {
    const test = generateApiKey("test");
    const live = generateApiKey("live");
    expect(matchesOf(PUBLISHED.live, test)).toEqual([]);
    expect(matchesOf(PUBLISHED.test, live)).toEqual([]);
  });

  it("a live key whose random part begins with 'test' stays live", () => {
    const live = byPublishedRule("ik_", "test0123456789ABCDEFGHIJKL");
    expect(parseApiKey(live)).toEqual({ ok: true });
    expect(modeOfApiKey(live)).toBe("live");
  });

  it("the same 32 characters behind the other prefix are well formed but another value: the prefix is hashed with them", () => {
    const test = generateApiKey("test");
    const asLive = `ik_${test.slice(8)}`;
    expect(parseApiKey(asLive)).toEqual({ ok: true });
    expect(modeOfApiKey(asLive)).toBe("live");
    expect(hashApiKey(asLive)).not.toBe(hashApiKey(test));
  });

  it("docs/security.md and the README publish both patterns", () => {
    for (const file of ["docs/security.md", "README.md"]) {
      const text = readFileSync(file, "utf8");
      for (const pattern of Object.values(PUBLISHED)) expect(text, file).toContain(pattern);
    }
  });
});
