"use server";

import { orgAction } from "@/lib/action";
import { createEndpoint, deleteEndpoint, resendDelivery, rotateSecret, sendTestEvent, setEndpointEnabled } from "@/lib/webhooks/endpoints";
import { createWebhookEndpointInput, resendWebhookDeliveryInput, setWebhookEndpointEnabledInput, webhookEndpointInput } from "@/lib/webhooks/input";

// Each webhook change as the dashboard calls it: its input, who may, whether sudo mode guards it (endpoints and secrets), and the rule in lib/webhooks/endpoints.ts.
export const createWebhookEndpointAction = orgAction(createWebhookEndpointInput, "notifications.manage", createEndpoint, { sudo: true });
export const setWebhookEndpointEnabledAction = orgAction(setWebhookEndpointEnabledInput, "notifications.manage", setEndpointEnabled, { sudo: true });
export const rotateWebhookSecretAction = orgAction(webhookEndpointInput, "notifications.manage", rotateSecret, { sudo: true });
export const deleteWebhookEndpointAction = orgAction(webhookEndpointInput, "notifications.manage", deleteEndpoint, { sudo: true });
export const sendTestWebhookAction = orgAction(webhookEndpointInput, "notifications.manage", sendTestEvent);
export const resendWebhookDeliveryAction = orgAction(resendWebhookDeliveryInput, "notifications.manage", resendDelivery);
