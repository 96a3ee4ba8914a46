"use client";

import { Badge } from "@/components/ui/badge";
import { Tooltip, TooltipContent, TooltipTrigger } from "@/components/ui/tooltip";
import { outsidePolicyAdvice } from "@/lib/keys/policy";

/** A key created before the policy, and what to do about it (on hover and keyboard focus). */
export function OutsidePolicyBadge({ breach, canRoll }: { breach: string | null; canRoll: boolean }) {
  if (!breach) return null;
  return (
    <Tooltip>
      <TooltipTrigger asChild>
        <Badge variant="warning" tabIndex={0} className="cursor-default font-normal">
          Outside key policy
        </Badge>
      </TooltipTrigger>
      <TooltipContent className="max-w-64">
        {breach} {outsidePolicyAdvice(canRoll)}
      </TooltipContent>
    </Tooltip>
  );
}
