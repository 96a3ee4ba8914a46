import fc from "fast-check";

/**
 * Inputs for the fuzz suites: values shaped by a JSON Schema (taken from the served OpenAPI
 * document, so a new field is fuzzed without anyone listing it), mixed with the hostile values
 * that broke the service before (docs/security.md#input).
 */

type Json = Record<string, unknown>;

/** The seed of every property: fixed so CI is repeatable; FUZZ_SEED explores other corners. */
export const FUZZ_SEED = Number(process.env.FUZZ_SEED ?? 20261123);
/** Cases per operation or action; FUZZ_RUNS scales the whole suite. */
export function fuzzRuns(base: number): number {
  return Math.max(1, Math.round(base * Number(process.env.FUZZ_RUNS_FACTOR ?? 1)));
}

const COMBINING_FLOOD = `a${"\u0301".repeat(3_000)}`;

export const HOSTILE_STRINGS = [
  "",
  " ",
  "\u0000",
  "cus_\u0000",
  "\ud800",
  "x\udfffy",
  COMBINING_FLOOD,
  "x".repeat(10_001),
  "💥".repeat(300),
  "0000-01-01",
  "1999-12-31",
  "2099-12-31",
  "2100-01-01",
  "9999-12-30",
  "2026-02-30",
  "-1",
  "1e400",
  "NaN",
  "__proto__",
  "constructor",
  "'; drop table customers; --",
  "../../etc/passwd",
  "%00",
  "\u202e\u0000\r\n",
] as const;

const HOSTILE_NUMBERS = [0, -0, -1, 0.5, 1.5, 2 ** 31, 2 ** 53, -(2 ** 53), 2 ** 53 - 1, 1e308, -1e308, Number.MIN_VALUE] as const;

/** Objects JSON.parse makes but no literal can: an own __proto__ key. */
const PROTO_OBJECTS = [JSON.parse('{"__proto__": {"polluted": true}}'), JSON.parse('{"__proto__": "x", "crm": "1"}')] as unknown[];

export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(...HOSTILE_STRINGS),
  fc.constantFrom<unknown>(...HOSTILE_NUMBERS),
  fc.constantFrom<unknown>(null, true, false, [], {}, [[[]]], ...PROTO_OBJECTS),
);

/** Bodies that are not the JSON a schema asks for, or not JSON at all. */
export const MALFORMED_BODIES = [
  "",
  "{",
  '{"name":',
  "nul",
  "null",
  "[]",
  '"text"',
  "1e999",
  "\ufeff{}",
  '{"name": "a", "name": "b"}',
  '{"__proto__": {"polluted": true}, "name": "Proto"}',
  "[".repeat(20_000) + "]".repeat(20_000),
  `{"name": "${"\\u0000".repeat(10)}"}`,
  '{"name": "\\ud800"}',
] as const;

/**
 * A path segment or query value as it crosses the wire: percent-encoded, an unpaired surrogate as
 * the bytes a broken client would send. Clipped to 1,000 characters: Node's HTTP parser answers a
 * request head over 16 KB with a bare 431 before any application code (docs/security.md, Input).
 */
export function urlComponent(value: string): string {
  const clipped = value.slice(0, 1_000);
  return clipped.isWellFormed() ? encodeURIComponent(clipped) : clipped.replace(/[\ud800-\udfff]/g, "%ED%A0%80");
}

export const BROKEN_ENCODINGS = ["%", "%zz", "%ED%A0%80", "%FF", "%C0%80", "a%2Fb", "%2e%2e"] as const;

const DAY_MS = 86_400_000;
const dayString = (from: string, to: string) =>
  fc.integer({ min: Date.parse(from) / DAY_MS, max: Date.parse(to) / DAY_MS }).map((day) => new Date(day * DAY_MS).toISOString().slice(0, 10));

export class SchemaArbitraries {
  constructor(private readonly doc: Json) {}

  resolve(node: Json): Json {
    let current = node;
    while (typeof current.$ref === "string") {
      current = current.$ref
        .slice(2)
        .split("/")
        .reduce<Json>((at, key) => at[key.replace(/~1/g, "/").replace(/~0/g, "~")] as Json, this.doc);
    }
    return current;
  }

  /** A value for `schema`: mostly one it could accept, sometimes a hostile one. */
  value(schema: Json, depth = 0): fc.Arbitrary<unknown> {
    return fc.oneof({ arbitrary: this.shaped(schema, depth), weight: 12 }, { arbitrary: hostileValue, weight: 1 });
  }

  private shaped(node: Json, depth: number): fc.Arbitrary<unknown> {
    const schema = this.resolve(node);
    if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
    if (Array.isArray(schema.anyOf ?? schema.oneOf)) return fc.oneof(...((schema.anyOf ?? schema.oneOf) as Json[]).map((option) => this.shaped(option, depth)));
    const types = (Array.isArray(schema.type) ? schema.type : [schema.type ?? "string"]) as string[];
    return fc.oneof(...types.map((type) => this.ofType(type, schema, depth)));
  }

  private ofType(type: string, schema: Json, depth: number): fc.Arbitrary<unknown> {
    switch (type) {
      case "null":
        return fc.constant(null);
      case "boolean":
        return fc.boolean();
      case "integer": {
        const min = (schema.minimum as number | undefined) ?? -(2 ** 31);
        const max = (schema.maximum as number | undefined) ?? 2 ** 31;
        return fc.oneof(
          fc.integer({ min: Math.max(min, Number.MIN_SAFE_INTEGER), max: Math.min(max, Number.MAX_SAFE_INTEGER) }),
          fc.constantFrom(min, max, min - 1, max + 1),
        );
      }
      case "number": {
        const min = (schema.minimum as number | undefined) ?? -1e6;
        const max = (schema.maximum as number | undefined) ?? 1e6;
        return fc.oneof(fc.double({ min, max, noNaN: true, noDefaultInfinity: true }), fc.constantFrom(min, max, 19, 8.875, 0.00001));
      }
      case "array": {
        const maxItems = Math.min((schema.maxItems as number | undefined) ?? 5, depth > 1 ? 2 : 5);
        return fc.array(this.value((schema.items ?? {}) as Json, depth + 1), { minLength: (schema.minItems as number | undefined) ?? 0, maxLength: maxItems });
      }
      case "object":
        return this.object(schema, depth);
      default:
        return this.string(schema);
    }
  }

  private string(schema: Json): fc.Arbitrary<string> {
    if (schema.format === "date") return fc.oneof(dayString("2000-01-01", "2099-12-31"), fc.constantFrom("2000-01-01", "2099-12-31", "2026-02-28"));
    if (schema.format === "email") return fc.emailAddress().filter((email) => email.length <= 254);
    if (typeof schema.pattern === "string") return fc.stringMatching(new RegExp(schema.pattern));
    const maxLength = (schema.maxLength as number | undefined) ?? 64;
    const minLength = (schema.minLength as number | undefined) ?? 0;
    return fc.oneof(
      fc.string({ minLength, maxLength: Math.min(maxLength, 40), unit: "grapheme" }),
      fc.string({ minLength, maxLength: Math.min(maxLength, 40), unit: "binary" }),
      fc.constant("x".repeat(maxLength)),
      fc.constant("y".repeat(maxLength + 1)),
    );
  }

  private object(schema: Json, depth: number): fc.Arbitrary<unknown> {
    const properties = (schema.properties ?? {}) as Record<string, Json>;
    const required = new Set((schema.required ?? []) as string[]);
    const names = Object.keys(properties);
    if (names.length === 0 && schema.additionalProperties && typeof schema.additionalProperties === "object") {
      const key = fc.oneof(fc.string({ minLength: 1, maxLength: 12 }), fc.constantFrom("__proto__", "constructor", "k".repeat(41), "\u0000"));
      return fc.dictionary(key, this.value(schema.additionalProperties as Json, depth + 1), { maxKeys: 5 });
    }
    const record = fc.record(Object.fromEntries(names.map((name) => [name, this.value(properties[name]!, depth + 1)])), {
      requiredKeys: names.filter((name) => required.has(name)),
    }) as fc.Arbitrary<Json>;
    // Sometimes a required field is dropped or an unknown one added.
    return fc.tuple(record, fc.constantFrom("as-is", "as-is", "as-is", "as-is", "as-is", "drop-required", "unknown-key")).map(([value, change]) => {
      if (change === "drop-required" && required.size > 0) {
        const { [[...required][0]!]: _dropped, ...rest } = value;
        return rest;
      }
      if (change === "unknown-key") return { ...value, unexpected_field: 1 };
      return value;
    });
  }
}
