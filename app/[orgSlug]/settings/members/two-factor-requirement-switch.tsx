"use client";

import { RequirementSwitch } from "@/components/requirement-switch";
import { setTwoFactorRequirementAction } from "./actions";

/** The button that turns the requirement on or off, after a confirmation saying whom it affects. */
export function TwoFactorRequirementSwitch({
  orgId,
  orgName,
  required,
  without,
  blocked,
}: {
  orgId: string;
  orgName: string;
  required: boolean;
  /** Members without a second factor. */
  without: number;
  /** The viewer has none themselves, so requiring it would lock them out. */
  blocked: boolean;
}) {
  return (
    <RequirementSwitch
      orgId={orgId}
      required={required}
      disabled={blocked}
      action={setTwoFactorRequirementAction}
      on={{
        button: "Require two-factor for everyone…",
        title: `Require two-factor for everyone in ${orgName}?`,
        description:
          without === 0
            ? "Every member already has it. New members will have to set it up before they reach anything here."
            : `${without} ${without === 1 ? "member does" : "members do"} not have it yet. From their next page load, they are taken to set it up and reach nothing of ${orgName} until they have.`,
        confirm: "Require two-factor",
        done: "Two-factor is now required for everyone",
      }}
      off={{
        button: "Stop requiring two-factor…",
        title: "Stop requiring two-factor?",
        description: "Members may then sign in and work here with a password alone.",
        confirm: "Stop requiring",
        done: "Two-factor is no longer required",
      }}
    />
  );
}
