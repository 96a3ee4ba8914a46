import { describe, expect, it } from "vitest";
import { keyLimitReached } from "./catalog";

describe("the plan's limit of active keys, said before the form", () => {
  it.each([
    ["trial", 1, null],
    ["trial", 2, "Your Trial plan allows 2 active API keys. Revoke a key you no longer use, or change the plan."],
    ["pro", 9, null],
    ["pro", 10, "Your Pro plan allows 10 active API keys. Revoke a key you no longer use, or change the plan."],
    ["pro", 11, "Your Pro plan allows 10 active API keys. Revoke a key you no longer use, or change the plan."],
    ["enterprise", 5000, null],
  ] as const)("%s with %i active keys: %s", (plan, active, said) => {
    expect(keyLimitReached(plan, active)).toBe(said);
  });
});
