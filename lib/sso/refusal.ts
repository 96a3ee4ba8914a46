/** Why a sign-in through an organization's provider was refused, for the sign-in page to say (docs/features/sso.md#when-it-is-refused). */
export type SsoRefusalReason = "state" | "expired" | "provider" | "identity";

export class SsoRefusal extends Error {
  constructor(
    readonly reason: SsoRefusalReason,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = "SsoRefusal";
  }
}
