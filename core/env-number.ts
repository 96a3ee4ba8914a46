/**
 * A whole number of `unit` from the environment variable `name`, at least `min`; `fallback` when
 * it is unset or empty. Anything else stops the process at start with the variable's name, rather
 * than running on NaN.
 */
export function wholeNumberFromEnv(
  name: string,
  fallback: number,
  unit: string,
  { min = 1, env = process.env }: { min?: number; env?: Record<string, string | undefined> } = {},
): number {
  const configured = env[name];
  if (configured === undefined || configured === "") return fallback;
  const value = Number(configured);
  if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be a whole number of ${unit}, at least ${min} (it is "${configured}").`);
  return value;
}
