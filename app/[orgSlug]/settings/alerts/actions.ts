"use server";

import { orgAction } from "@/lib/action";
import { alertSettingsInput, markAlertsReadInput } from "@/lib/alerts/input";
import { changeAlertSettings, markRead } from "@/lib/alerts/settings";

// The alert changes as the dashboard calls them: their input, who may, and the rule in lib/alerts/settings.ts.
export const markAlertsReadAction = orgAction(markAlertsReadInput, "alerts.view", markRead);
export const setAlertSettingsAction = orgAction(alertSettingsInput, "notifications.manage", changeAlertSettings);
