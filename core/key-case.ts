/** Object keys between the code's camelCase and the snake_case of what leaves the service (webhook payloads, log-stream events). */

/** "actorUserId" → "actor_user_id". */
export function snakeCase(name: string): string {
  return name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

/** "endpoint_id" → "endpointId". */
export function camelCase(name: string): string {
  return name.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());
}

/** `value` with every object key, at any depth, in snake_case. */
export function withSnakeCaseKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withSnakeCaseKeys);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [snakeCase(key), withSnakeCaseKeys(inner)]));
}
