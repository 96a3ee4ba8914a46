/**
 * A key's budget, a number of requests per UTC day, week (from Monday) or month. The
 * admission statement (db/queries/admission-statement.ts) decides with PostgreSQL's `date_trunc(period, at,
 * 'UTC')`; these are its TypeScript mirrors for the pages and the headers, held to it by
 * tests/admission-mirrors.test.ts.
 */
export const BUDGET_PERIOD_VALUES = ["day", "week", "month"] as const;
export type BudgetPeriod = (typeof BUDGET_PERIOD_VALUES)[number];

/** The largest budget a key can be given: within PostgreSQL's integer, and more than any plan's month. */
export const KEY_BUDGET_MAX = 1_000_000_000;

/** The shares of a budget (percent) that raise an alert, once per period each. */
export const BUDGET_ALERT_THRESHOLDS = [80, 100] as const;

export interface KeyBudget {
  limit: number;
  period: BudgetPeriod;
}

/** A key's budget as the dashboard shows it: where the current period stands. */
export interface KeyBudgetDto extends KeyBudget {
  /** Requests admitted this period (more than the limit when it was lowered within the period). */
  used: number;
  periodStart: string;
  /** When the period ends and the count starts again. */
  resetsAt: string;
}

export const BUDGET_PERIOD_LABELS: Record<BudgetPeriod, { adjective: string; per: string; this: string }> = {
  day: { adjective: "Daily", per: "per day", this: "today" },
  week: { adjective: "Weekly", per: "per week", this: "this week" },
  month: { adjective: "Monthly", per: "per month", this: "this month" },
};

/** "3 requests per day", "1,000 requests per month". */
export function describeBudget(budget: KeyBudget): string {
  return `${budget.limit.toLocaleString("en-US")} ${budget.limit === 1 ? "request" : "requests"} ${BUDGET_PERIOD_LABELS[budget.period].per}`;
}

/** The first instant of the UTC day, week (Monday) or month that `at` falls in. */
export function budgetPeriodStart(at: Date, period: BudgetPeriod): Date {
  const year = at.getUTCFullYear();
  const month = at.getUTCMonth();
  const day = at.getUTCDate();
  if (period === "month") return new Date(Date.UTC(year, month, 1));
  if (period === "day") return new Date(Date.UTC(year, month, day));
  // getUTCDay: Sunday 0 … Saturday 6; Monday starts the week.
  const sinceMonday = (at.getUTCDay() + 6) % 7;
  return new Date(Date.UTC(year, month, day - sinceMonday));
}

/** The first instant of the period after the one starting at `start`: when the budget resets. */
export function budgetPeriodEnd(start: Date, period: BudgetPeriod): Date {
  const year = start.getUTCFullYear();
  const month = start.getUTCMonth();
  const day = start.getUTCDate();
  if (period === "month") return new Date(Date.UTC(year, month + 1, 1));
  return new Date(Date.UTC(year, month, day + (period === "day" ? 1 : 7)));
}

const thresholdCount = (limit: number, threshold: number) => Math.ceil((limit * threshold) / 100);

/**
 * The budget thresholds (percent) that `used` of `limit` has reached. A threshold that falls on
 * the same request as a higher one is left to it: with a budget of 3, the 3rd request is 100 %,
 * not also "80 %".
 */
export function budgetThresholdsReached(limit: number, used: number): number[] {
  return BUDGET_ALERT_THRESHOLDS.filter(
    (threshold, i) =>
      used >= thresholdCount(limit, threshold) &&
      BUDGET_ALERT_THRESHOLDS.slice(i + 1).every((higher) => thresholdCount(limit, higher) !== thresholdCount(limit, threshold)),
  );
}
