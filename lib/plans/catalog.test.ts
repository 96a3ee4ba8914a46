import { describe, expect, it } from "vitest";
import { keyLimitReached } from "./catalog";

describe("the plan's limit of active keys, said before the form", () => {
  it.each([
    ["trial", "live", 1, null],
    ["trial", "live", 2, "Your Trial plan allows 2 active live keys (test keys are counted apart). Revoke a live key you no longer use, or change the plan."],
    ["trial", "test", 2, "Your Trial plan allows 2 active test keys (live keys are counted apart). Revoke a test key you no longer use, or change the plan."],
    ["pro", "live", 9, null],
    ["pro", "test", 9, null],
    ["pro", "live", 10, "Your Pro plan allows 10 active live keys (test keys are counted apart). Revoke a live key you no longer use, or change the plan."],
    ["pro", "live", 11, "Your Pro plan allows 10 active live keys (test keys are counted apart). Revoke a live key you no longer use, or change the plan."],
    ["enterprise", "live", 5000, null],
    ["enterprise", "test", 5000, null],
  ] as const)("%s, %s keys, %i active: %s", (plan, mode, active, said) => {
    expect(keyLimitReached(plan, mode, active)).toBe(said);
  });
});
