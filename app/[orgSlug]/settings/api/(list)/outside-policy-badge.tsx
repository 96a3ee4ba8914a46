import { Badge } from "@/components/ui/badge";
import { Tooltip } from "@/components/ui/tooltip";
import { outsidePolicyAdvice } from "@/lib/keys/policy";

/** A key created before the policy, and what to do about it (on hover and keyboard focus). */
export function OutsidePolicyBadge({ breach, canRoll }: { breach: string | null; canRoll: boolean }) {
  if (!breach) return null;
  return (
    <Tooltip content={`${breach} ${outsidePolicyAdvice(canRoll)}`} className="max-w-64">
      <Badge variant="warning" tabIndex={0} className="cursor-default font-normal">
        Outside key policy
      </Badge>
    </Tooltip>
  );
}
