/**
 * The activity history's vocabulary (docs/features/activity-history.md): what can happen, to what, and how the dashboard
 * names it. The Activity page's filter, its entries and the writers all read this one list;
 * lib/activity.ts says how an entry reads.
 */

export const ACTIVITY_ACTIONS = {
  "organization.created": "Organization created",
  "api_key.created": "Key created",
  "api_key.renamed": "Key renamed",
  "api_key.restrictions_changed": "Key access changed",
  "api_key.budget_changed": "Key budget changed",
  "api_key.rolled": "Key rolled",
  "api_key.revoked": "Key revoked",
  "api_key.expired": "Key expired",
  "api_key.leaked": "Key found in public",
  "plan.changed": "Plan changed",
  "rate_limit.changed": "Rate limit changed",
  "key_policy.changed": "Key policy changed",
  "alert_settings.changed": "Alert settings changed",
  "webhook_endpoint.created": "Webhook endpoint added",
  "webhook_endpoint.enabled": "Webhook endpoint turned on",
  "webhook_endpoint.disabled": "Webhook endpoint turned off",
  "webhook_endpoint.secret_rotated": "Webhook secret rotated",
  "webhook_endpoint.deleted": "Webhook endpoint deleted",
  "webhook_endpoint.test_sent": "Webhook test event sent",
  "webhook_delivery.resent": "Webhook delivery resent",
  "log_stream.created": "Log stream added",
  "log_stream.paused": "Log stream paused",
  "log_stream.resumed": "Log stream resumed",
  "log_stream.deleted": "Log stream deleted",
  "log_stream.test_sent": "Log stream test event sent",
  "invitation.created": "Member invited",
  "invitation.revoked": "Invitation revoked",
  "member.joined": "Member joined",
  "member.role_changed": "Member role changed",
  "member.removed": "Member removed",
  "member.left": "Member left",
  "two_factor.totp_added": "Authenticator app added",
  "two_factor.totp_removed": "Authenticator app removed",
  "two_factor.passkey_added": "Passkey added",
  "two_factor.passkey_removed": "Passkey removed",
  "two_factor.recovery_codes_renewed": "Recovery codes renewed",
  "two_factor.requirement_changed": "Two-factor requirement changed",
  "leaked_key_response.changed": "Leaked-key response changed",
  "sso_connection.saved": "Single sign-on provider saved",
  "sso_connection.removed": "Single sign-on provider removed",
  "sso_connection.requirement_changed": "Single sign-on requirement changed",
  "sso_domain.added": "Email domain added",
  "sso_domain.verified": "Email domain verified",
  "sso_domain.removed": "Email domain removed",
  "test_data.deleted": "Test data deleted",
} as const;

export type ActivityAction = keyof typeof ACTIVITY_ACTIONS;

export const ACTIVITY_ACTION_VALUES = Object.keys(ACTIVITY_ACTIONS) as [ActivityAction, ...ActivityAction[]];

/** The entries that end a key: a refused request of that key links to one of them. */
export const KEY_ENDING_ACTIONS = ["api_key.revoked", "api_key.expired"] as const satisfies readonly ActivityAction[];

export const ACTIVITY_TARGET_TYPES = [
  "api_key",
  "organization",
  "webhook_endpoint",
  "log_stream",
  "member",
  "invitation",
  "sso_connection",
  "sso_domain",
] as const;
export type ActivityTargetType = (typeof ACTIVITY_TARGET_TYPES)[number];

/** Values of a target as they were before a change and after it: plain JSON, never a secret. */
export type ActivityValues = Record<string, string | number | boolean | null>;

/** One change, as an action reports it to the wrapper that writes it. */
export interface ActivityChange {
  action: ActivityAction;
  target: { type: ActivityTargetType; id: string; name: string };
  before?: ActivityValues | null;
  after?: ActivityValues | null;
}
