"use server";

import { orgAction } from "@/lib/action";
import { alertSettingsInput, markAlertsReadInput } from "@/lib/alerts/input";
import { changeAlertSettings, markRead } from "@/lib/alerts/settings";
import { createSlackChannelInput } from "@/lib/webhooks/input";
import { createSlackChannel } from "@/lib/webhooks/endpoints";

// The alert changes as the dashboard calls them: their input, who may, and the rule in lib/alerts/settings.ts.
export const markAlertsReadAction = orgAction(markAlertsReadInput, "alerts.view", markRead);
export const setAlertSettingsAction = orgAction(alertSettingsInput, "notifications.manage", changeAlertSettings);
// A Slack channel is an endpoint of its own format; removing it, testing it and its log are the webhook actions'.
export const createSlackChannelAction = orgAction(createSlackChannelInput, "notifications.manage", createSlackChannel, { sudo: true });
