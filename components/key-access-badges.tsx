import { Gauge, Globe, Lock, LockOpen } from "lucide-react";
import { usageLevel } from "@/components/usage-meter";
import { Badge } from "@/components/ui/badge";
import { Tooltip } from "@/components/ui/tooltip";
import type { KeyRestrictions } from "@/core/enums";
import { describeScopes } from "@/lib/keys/access";
import { BUDGET_PERIOD_LABELS, describeBudget, type KeyBudgetDto } from "@/core/key-budget";

const number = new Intl.NumberFormat("en-US");
const LEVEL_VARIANT = { none: "outline", near: "warning", "used-up": "destructive" } as const;

/**
 * What a key can do at a glance ("Read only", "Restricted", "IP-restricted", its
 * budget this period), the detail on hover and keyboard focus. A full-access key without an
 * allowlist or a budget carries none.
 */
export function KeyAccessBadges({ apiKey }: { apiKey: KeyRestrictions & { budget?: KeyBudgetDto | null } }) {
  const { budget } = apiKey;
  const reach = describeScopes(apiKey.access, apiKey.scopes)
    .filter((line) => line.can !== "No access")
    .map((line) => `${line.label}: ${line.can.toLowerCase()}`)
    .join(" · ");
  const badges: ({ label: string; icon: typeof Gauge; detail: string; variant?: (typeof LEVEL_VARIANT)[keyof typeof LEVEL_VARIANT] } | null)[] = [
    apiKey.access === "read_only" ? { label: "Read only", icon: LockOpen, detail: `GET requests only. ${reach}.` } : null,
    apiKey.access === "restricted" ? { label: "Restricted", icon: Lock, detail: `${reach}. Nothing else.` } : null,
    apiKey.ipAllowlist.length > 0
      ? {
          label: "IP-restricted",
          icon: Globe,
          detail: `Only from ${apiKey.ipAllowlist.length === 1 ? apiKey.ipAllowlist[0] : `${apiKey.ipAllowlist.length} addresses or ranges`}.`,
        }
      : null,
    budget
      ? {
          label: `${number.format(budget.used)} / ${number.format(budget.limit)} ${BUDGET_PERIOD_LABELS[budget.period].this}`,
          icon: Gauge,
          detail: `Budget: ${describeBudget(budget)}, ${number.format(budget.used)} used ${BUDGET_PERIOD_LABELS[budget.period].this}. It starts again at ${budget.resetsAt.slice(0, 16).replace("T", " ")} UTC.`,
          variant: LEVEL_VARIANT[usageLevel(budget.used, budget.limit) ?? "none"],
        }
      : null,
  ];
  const shown = badges.filter((badge) => badge !== null);
  if (shown.length === 0) return null;
  return (
    <span className="flex flex-wrap gap-1">
      {shown.map(({ label, icon: Icon, detail, variant = "outline" }) => (
        <Tooltip key={label} content={detail} className="max-w-64">
          <Badge variant={variant} tabIndex={0} className="cursor-default font-normal">
            <Icon aria-hidden /> {label}
          </Badge>
        </Tooltip>
      ))}
    </span>
  );
}
