"use client";

import { createContext, useContext } from "react";
import type { ActionResult } from "@/lib/action-result";

/** Asks the person to confirm who they are; true once they have, false when they cancel. */
export type AskForIdentity = () => Promise<boolean>;

export const IdentityConfirmationContext = createContext<AskForIdentity | null>(null);

/** Outside a dashboard page no one can answer the question: the refusal's message is shown as it is. */
const NOBODY_TO_ASK: AskForIdentity = async () => false;

export function useIdentityConfirmation(): AskForIdentity {
  return useContext(IdentityConfirmationContext) ?? NOBODY_TO_ASK;
}

/**
 * Whether sudo mode refused the change (`reauthenticate`): the caller asks the person
 * who they are and sends the same change again. It asks after its action's transition has ended,
 * never inside it: React holds a transition's updates (the question's own answer among them)
 * until every action in it has finished, so a question awaited inside would never be answered.
 */
export function needsIdentity(result: ActionResult<unknown>): boolean {
  return !result.ok && result.reauthenticate === true;
}
