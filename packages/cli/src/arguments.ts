/**
 * Request parameters from the command line, written as HTTPie writes them (docs/features/cli.md#parameters):
 * `name=Acme` is a string, `unit_amount:=2490` is JSON (a number, true, null, an array, an object),
 * and a dotted or indexed key builds nested objects: `address.city=Berlin`, `lines[0].quantity:=2`.
 */
export class UsageError extends Error {
  override readonly name = "UsageError";
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const PARAMETER = /^([A-Za-z_][\w.[\]]*?)(:=|=)([\s\S]*)$/;

function pathOf(key: string): (string | number)[] {
  const parts: (string | number)[] = [];
  for (const segment of key.split(".")) {
    const match = /^([A-Za-z_]\w*)((?:\[\d+\])*)$/.exec(segment);
    if (!match) throw new UsageError(`"${key}" is not a parameter name: use letters, digits and _, with . for nesting and [0] for list items.`);
    parts.push(match[1]!);
    for (const index of match[2]!.matchAll(/\[(\d+)\]/g)) parts.push(Number(index[1]));
  }
  return parts;
}

function assign(target: Record<string, Json>, path: (string | number)[], value: Json): void {
  let node: Record<string | number, Json> = target;
  path.forEach((part, position) => {
    if (position === path.length - 1) return void (node[part] = value);
    const nextIsIndex = typeof path[position + 1] === "number";
    node[part] ??= nextIsIndex ? [] : {};
    node = node[part] as Record<string | number, Json>;
  });
}

function jsonValue(key: string, text: string): Json {
  try {
    return JSON.parse(text) as Json;
  } catch (error) {
    throw new UsageError(`${key}:= takes JSON, and ${text || "an empty value"} is not JSON (write ${key}=… for text).`, { cause: error });
  }
}

/** Whether a command-line word is a parameter (`key=value` or `key:=json`) rather than an id. */
export function isParameter(word: string): boolean {
  return PARAMETER.test(word);
}

/** The parameters of the words, merged over a `--data` JSON object when one is given. */
export function parameters(words: string[], data?: string): Record<string, Json> {
  const base = data === undefined ? {} : jsonValue("--data", data);
  if (base === null || typeof base !== "object" || Array.isArray(base)) throw new UsageError("--data takes a JSON object.");
  for (const word of words) {
    const [, key, operator, value] = PARAMETER.exec(word) ?? [];
    if (!key) throw new UsageError(`"${word}" is not a parameter: write key=text or key:=json.`);
    assign(base, pathOf(key), operator === ":=" ? jsonValue(key, value!) : value!);
  }
  return base;
}
