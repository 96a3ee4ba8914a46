"use server";

import { orgAction } from "@/lib/action";
import { chooseEmails, emailPreferencesInput } from "@/lib/notifications/preferences";

// Each person's own email choices (docs/features/notifications.md#email): anyone who sees alerts chooses for themself.
export const setEmailPreferencesAction = orgAction(emailPreferencesInput, "alerts.view", chooseEmails);
