import { Gauge } from "lucide-react";
import type { ReactNode } from "react";
import { RelativeTime } from "@/components/relative-time";
import { UsageMeter, usageLevel } from "@/components/usage-meter";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { BUDGET_PERIOD_LABELS, describeBudget, type KeyBudgetDto } from "@/core/key-budget";

const number = new Intl.NumberFormat("en-US");

/** A key's budget on its page (docs/features/key-budgets.md#shown): the budget, what this period has used of it, and when it starts again. */
export function KeyBudget({ budget, editor }: { budget: KeyBudgetDto | null; editor: ReactNode }) {
  if (!budget) {
    return (
      <Card role="region" aria-label="Budget">
        <CardHeader className="flex flex-wrap items-start justify-between gap-2">
          <div className="space-y-1.5">
            <CardTitle className="text-base">Budget: none</CardTitle>
            <CardDescription>
              The key can call up to its rate limit and the organization&apos;s quota. Give it a budget to stop it after a number of requests per day, week or
              month.
            </CardDescription>
          </div>
          {editor}
        </CardHeader>
      </Card>
    );
  }
  const level = usageLevel(budget.used, budget.limit);
  const when = BUDGET_PERIOD_LABELS[budget.period].this;
  return (
    <Card role="region" aria-label="Budget">
      <CardHeader className="flex flex-wrap items-start justify-between gap-2">
        <div className="space-y-1.5">
          <CardTitle className="flex flex-wrap items-center gap-2 text-base">
            <Gauge className="size-4 text-muted-foreground" aria-hidden /> Budget: {describeBudget(budget)}
            {level ? (
              <Badge variant={level === "used-up" ? "destructive" : "warning"}>
                {level === "used-up" ? "Used up" : `${Math.floor((budget.used / budget.limit) * 100)} % used`}
              </Badge>
            ) : null}
          </CardTitle>
          <CardDescription>Counted in UTC. Requests over it get 429 key_budget_exceeded until the period ends; refused requests do not count.</CardDescription>
        </div>
        {editor}
      </CardHeader>
      <CardContent className="space-y-2">
        <p className="text-sm">
          <span className="text-lg font-semibold tabular-nums">{number.format(budget.used)}</span>
          <span className="text-muted-foreground">
            {" "}
            of {number.format(budget.limit)} used {when}
          </span>
        </p>
        <UsageMeter
          used={budget.used}
          limit={budget.limit}
          label={`${number.format(budget.used)} of ${number.format(budget.limit)} requests of the budget used ${when}`}
        />
        <p className="text-sm text-muted-foreground">
          Starts again <RelativeTime value={budget.resetsAt} />
        </p>
      </CardContent>
    </Card>
  );
}
