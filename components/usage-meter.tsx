import { Progress } from "@/components/ui/progress";
import { cn } from "@/lib/utils";

export type UsageLevel = "near" | "used-up" | null;

/** Amber from 80 % of a quota or budget, red once it is used up. */
export function usageLevel(used: number, limit: number): UsageLevel {
  const share = (used / limit) * 100;
  return share >= 100 ? "used-up" : share >= 80 ? "near" : null;
}

/** A quota's or a budget's bar, coloured by its level. */
export function UsageMeter({ used, limit, label, className }: { used: number; limit: number; label: string; className?: string }) {
  const level = usageLevel(used, limit);
  return (
    <Progress
      value={Math.min(100, (used / limit) * 100)}
      className={cn(level === "near" && "bg-warning/20", level === "used-up" && "bg-destructive/20", className)}
      indicatorClassName={cn(level === "near" && "bg-warning", level === "used-up" && "bg-destructive")}
      aria-label={label}
    />
  );
}
