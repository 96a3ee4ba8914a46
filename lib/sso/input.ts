import { z } from "zod";
import { SSO_ROLE_VALUES } from "@/core/sso";
import { boundedString, CONTROL_CHARACTER, emailSchema, idSchema, NO_CONTROL_CHARACTERS, onOffSchema, orgIdSchema } from "@/lib/input-rules";
import { DOMAIN_MAX, domainProblem, normalizeDomain } from "./domain-name";
import { ISSUER_URL_MAX, issuerUrlProblem } from "./issuer-url";

/** What the single sign-on page sends (docs/features/sso.md#the-page): one schema per form and action. */

export const CLIENT_ID_MAX = 255;
export const CLIENT_SECRET_MAX = 1024;

const oneLine = (max: number, empty: string) =>
  boundedString(max)
    .trim()
    .min(1, empty)
    .refine((text) => !CONTROL_CHARACTER.test(text), NO_CONTROL_CHARACTERS);

/** The provider's settings. Whether the issuer answers as one is checked by the action, not here. */
export const saveSsoConnectionInput = z.object({
  orgId: orgIdSchema,
  issuer: boundedString(ISSUER_URL_MAX)
    .trim()
    .min(1, "Enter your provider's issuer URL.")
    .superRefine((issuer, ctx) => {
      const problem = issuer ? issuerUrlProblem(issuer) : null;
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    }),
  clientId: oneLine(CLIENT_ID_MAX, "Enter the client ID your provider gave you."),
  clientSecret: oneLine(CLIENT_SECRET_MAX, "Enter the client secret your provider gave you."),
  defaultRole: z.enum(SSO_ROLE_VALUES, { error: "Choose member, admin or guest." }).default("member"),
});

export const ssoConnectionInput = z.object({ orgId: orgIdSchema });

export const addSsoDomainInput = z.object({
  orgId: orgIdSchema,
  // Room for a trailing dot and spaces around what was pasted; the normalized name is held to DOMAIN_MAX.
  domain: boundedString(DOMAIN_MAX + 8)
    .transform(normalizeDomain)
    .superRefine((domain, ctx) => {
      const problem = domainProblem(domain);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    }),
});

export const ssoDomainInput = z.object({ orgId: orgIdSchema, domainId: idSchema });

export const requireSsoInput = z.object({ orgId: orgIdSchema, required: onOffSchema("Say whether single sign-on is required.") });

/** "Sign in with SSO": the email finds the organization by its verified domain. */
export const ssoSignInInput = z.object({ email: emailSchema, callbackUrl: boundedString(2048).optional() });

/** Sudo mode asked of the provider: where to come back to. */
export const ssoConfirmInput = z.object({ returnTo: boundedString(2048).optional() });
