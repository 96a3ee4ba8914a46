"use client";

import { ConfirmFooter } from "@/components/confirm-footer";
import { AlertDialog, AlertDialogContent, AlertDialogDescription, AlertDialogHeader, AlertDialogTitle } from "@/components/ui/alert-dialog";
import { switchConsequences, type PlanOption, type PlanUsage } from "./plan-facts";

export interface PlanChangeConfirmationProps {
  target: PlanOption;
  usage: PlanUsage;
  pending: boolean;
  onConfirm: () => void;
  onClose: () => void;
}

/** "Switch to …?", with what the switch changes today. Loaded when a switch is chosen (./plan-chooser.tsx). */
export function PlanChangeConfirmation({ target, usage, pending, onConfirm, onClose }: PlanChangeConfirmationProps) {
  return (
    <AlertDialog open onOpenChange={(open) => !open && !pending && onClose()}>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Switch to {target.label}?</AlertDialogTitle>
          <AlertDialogDescription asChild>
            <div className="space-y-2">
              <p>The change is immediate: the next API request is held to the new limits. No key is deleted.</p>
              <ul className="list-disc space-y-1 pl-5 text-foreground">
                {switchConsequences(target, usage).map((line) => (
                  <li key={line}>{line}</li>
                ))}
              </ul>
            </div>
          </AlertDialogDescription>
        </AlertDialogHeader>
        <ConfirmFooter
          label={`Switch to ${target.label}`}
          pendingLabel="Switching…"
          pending={pending}
          onConfirm={onConfirm}
          variant={target.apiAccess ? "default" : "destructive"}
        />
      </AlertDialogContent>
    </AlertDialog>
  );
}
