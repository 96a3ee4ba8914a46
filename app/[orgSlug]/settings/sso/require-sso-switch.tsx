"use client";

import { RequirementSwitch } from "@/components/requirement-switch";
import { setSsoRequirementAction } from "./actions";

/** Turns "Require SSO" on or off after saying whom it affects (docs/features/sso.md#requiring-it). */
export function RequireSsoSwitch({ orgId, orgName, required }: { orgId: string; orgName: string; required: boolean }) {
  return (
    <RequirementSwitch
      orgId={orgId}
      required={required}
      action={setSsoRequirementAction}
      on={{
        button: "Require SSO…",
        title: `Require single sign-on for ${orgName}?`,
        description:
          "From their next page load, admins, members and guests signed in with a password are sent to sign in through the identity provider. Owners keep their password.",
        confirm: "Require SSO",
        done: "Single sign-on is now required",
      }}
      off={{
        button: "Stop requiring SSO…",
        title: "Stop requiring single sign-on?",
        description: "Admins, members and guests may then come in with their password again.",
        confirm: "Stop requiring",
        done: "Single sign-on is no longer required",
      }}
    />
  );
}
