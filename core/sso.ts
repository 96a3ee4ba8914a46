import type { Role } from "./enums";

/** Single sign-on (docs/features/sso.md): an organization's OpenID Connect provider and the email domains it has proved it owns. */

/** The roles a person may get on their first sign-in through the provider: never owner, which only an owner grants. */
export const SSO_ROLE_VALUES = ["member", "admin", "guest"] as const satisfies readonly Role[];
export type SsoRole = (typeof SSO_ROLE_VALUES)[number];

/** Email domains an organization may add. */
export const SSO_DOMAINS_MAX = 10;

/** The path the provider sends a person back to after signing in, on the dashboard's address: the redirect URI an owner registers at the provider. */
export const SSO_CALLBACK_PATH = "/api/auth/sso/callback";

/** The redirect URI on the dashboard's address `baseUrl`: what the owner registers, and what the sign-in sends. */
export function ssoRedirectUri(baseUrl: string): string {
  return `${baseUrl.replace(/\/$/, "")}${SSO_CALLBACK_PATH}`;
}
