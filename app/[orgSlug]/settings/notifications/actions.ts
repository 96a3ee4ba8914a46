"use server";

import { orgAction } from "@/lib/action";
import { chooseEmails, emailPreferencesInput } from "@/lib/notifications/preferences";

// Each person's own email choices (SPEC §15): anyone who sees alerts chooses for themself.
export const setEmailPreferencesAction = orgAction(emailPreferencesInput, "alerts.view", chooseEmails);
