import type { Plan } from "@/core/enums";
import { DEFAULT_RATE_LIMIT_PER_MINUTE, type PlanLimits } from "@/lib/plans/catalog";

/** A plan as the plan page shows it. */
export type PlanOption = PlanLimits & { id: Plan };

/** What the organization has used: the figures a switch is measured against. */
export interface PlanUsage {
  /** Active live keys: test keys are held to the same maximum apart (docs/features/test-mode.md#keys). */
  activeKeys: number;
  callsThisMonth: number;
}

export const number = new Intl.NumberFormat("en-US");

function limitText(value: number | null, unit: string): string {
  if (value === null) return `Unlimited ${unit}`;
  if (value === 0) return `No ${unit}`;
  return `${number.format(value)} ${unit}`;
}

export function planFeatures(plan: PlanOption): { text: string; included: boolean }[] {
  if (!plan.apiAccess)
    return [
      { text: "No API access", included: false },
      { text: "Dashboard only", included: true },
    ];
  return [
    { text: `${limitText(plan.maxActiveKeys, "active API keys")}, live and test each`, included: true },
    { text: `${limitText(plan.monthlyCalls, "API calls")} a month`, included: true },
    { text: plan.customRateLimit ? "Custom rate limit per key" : `${DEFAULT_RATE_LIMIT_PER_MINUTE} requests per minute per key`, included: true },
  ];
}

/** What switching to `target` changes for the organization today, said before it happens. */
export function switchConsequences(target: PlanLimits, usage: PlanUsage): string[] {
  if (!target.apiAccess) {
    return [
      `The API refuses every key with 403 plan_no_api_access${usage.activeKeys ? ` (your ${usage.activeKeys} active live keys are kept, not deleted)` : ""}.`,
      "No new keys can be created.",
    ];
  }
  const lines: string[] = [];
  if (target.maxActiveKeys !== null && usage.activeKeys > target.maxActiveKeys) {
    lines.push(
      `You have ${usage.activeKeys} active live keys and ${target.label} allows ${target.maxActiveKeys}: they all keep working, but no new live key can be created until fewer than ${target.maxActiveKeys} are active.`,
    );
  } else {
    lines.push(`${limitText(target.maxActiveKeys, "active API keys")}, live and test each (${usage.activeKeys} live in use).`);
  }
  if (target.monthlyCalls !== null && usage.callsThisMonth >= target.monthlyCalls) {
    lines.push(
      `This month's ${number.format(usage.callsThisMonth)} calls already use up ${target.label}'s ${number.format(target.monthlyCalls)}: further calls get 429 until next month.`,
    );
  } else {
    lines.push(`${limitText(target.monthlyCalls, "API calls")} a month (${number.format(usage.callsThisMonth)} used this month).`);
  }
  return lines;
}
