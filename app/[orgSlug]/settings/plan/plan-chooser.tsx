"use client";

import { createContext, use, useState, type ReactNode } from "react";
import { toast } from "@/components/toast";
import { FormAlert } from "@/components/form-alert";
import { onDemand } from "@/components/on-demand";
import { useConfirmAction } from "@/components/use-confirm-action";
import { Button } from "@/components/ui/button";
import { PLANS } from "@/lib/plans/catalog";
import { changePlanAction } from "./actions";
import type { PlanChangeConfirmationProps } from "./plan-change-confirmation";
import type { PlanOption, PlanUsage } from "./plan-facts";

const Confirmation = onDemand<PlanChangeConfirmationProps>(() => import("./plan-change-confirmation").then((module) => module.PlanChangeConfirmation));

const Chooser = createContext<{ choose: (plan: PlanOption) => void; pending: boolean }>({ choose: () => {}, pending: false });

/**
 * The plan page's one piece of state around its server-rendered cards: the switch being confirmed
 * (its confirmation loaded when chosen) and a refusal, shown above the plans.
 */
export function PlanChooser({ orgId, usage, children }: { orgId: string; usage: PlanUsage; children: ReactNode }) {
  const [confirming, setConfirming] = useState<PlanOption | null>(null);
  // Either answer closes the dialog: a refusal shows above the plans.
  const { pending, error, run } = useConfirmAction(changePlanAction, {
    onSettled: () => setConfirming(null),
    onSuccess: (data) => toast.success(`Switched to ${PLANS[data.plan].label}`, { description: "The new limits apply from the next API request." }),
  });
  return (
    <Chooser value={{ choose: setConfirming, pending }}>
      {error ? <FormAlert>{error}</FormAlert> : null}
      {children}
      {confirming ? (
        <Confirmation
          target={confirming}
          usage={usage}
          pending={pending}
          onConfirm={() => run({ orgId, plan: confirming.id })}
          onClose={() => setConfirming(null)}
        />
      ) : null}
    </Chooser>
  );
}

/** "Switch to …" on a plan's card: asks for a confirmation first. */
export function PlanSwitchButton({ plan }: { plan: PlanOption }) {
  const { choose, pending } = use(Chooser);
  return (
    <Button variant="outline" className="w-full" disabled={pending} onClick={() => choose(plan)} {...Confirmation.prefetchHandlers}>
      Switch to {plan.label}
    </Button>
  );
}
