import { describe, expect, it } from "vitest";
import { budgetThresholdsReached, describeBudget } from "@/core/key-budget";

describe("budget thresholds", () => {
  it.each([
    [10, 7, []],
    [10, 8, [80]],
    [10, 10, [80, 100]],
    [5, 4, [80]],
    // Where 80 % and 100 % fall on the same request, only 100 % is raised.
    [3, 3, [100]],
    [1, 1, [100]],
    [4, 4, [100]],
  ])("a budget of %i at %i used reaches %j", (limit, used, reached) => {
    expect(budgetThresholdsReached(limit, used)).toEqual(reached);
  });

  it("describes a budget in words", () => {
    expect(describeBudget({ limit: 1, period: "day" })).toBe("1 request per day");
    expect(describeBudget({ limit: 25_000, period: "month" })).toBe("25,000 requests per month");
  });
});
