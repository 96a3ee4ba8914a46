/**
 * OTLP's AnyValue and KeyValue in its JSON encoding (https://opentelemetry.io/docs/specs/otlp/#json-protobuf-encoding;
 * opentelemetry/proto/common/v1/common.proto): each value names its type; a 64-bit integer is a
 * decimal string; a map is a kvlistValue, a list an arrayValue; a null is an empty AnyValue.
 */

export type AnyValue =
  | { stringValue: string }
  | { boolValue: boolean }
  | { intValue: string }
  | { doubleValue: number }
  | { arrayValue: { values: AnyValue[] } }
  | { kvlistValue: { values: KeyValue[] } }
  | Record<string, never>;

export interface KeyValue {
  key: string;
  value: AnyValue;
}

export function anyValue(value: unknown): AnyValue {
  if (value === null || value === undefined) return {};
  if (typeof value === "string") return { stringValue: value };
  if (typeof value === "boolean") return { boolValue: value };
  if (typeof value === "number") {
    if (Number.isSafeInteger(value)) return { intValue: String(value) };
    // JSON has no NaN or Infinity: the proto3 mapping writes them as strings a reader may not take.
    return Number.isFinite(value) ? { doubleValue: value } : { stringValue: String(value) };
  }
  if (typeof value === "bigint") return { intValue: value.toString() };
  if (Array.isArray(value)) return { arrayValue: { values: value.map(anyValue) } };
  if (typeof value === "object") return { kvlistValue: { values: keyValues(value as Record<string, unknown>) } };
  return { stringValue: String(value) };
}

/** An object's fields as KeyValues, in their order; undefined ones left out (as JSON leaves them out). */
export function keyValues(fields: Record<string, unknown>): KeyValue[] {
  return Object.entries(fields)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => ({ key, value: anyValue(value) }));
}
