/** An invitation link's secret is `inv_` and 32 random base62 characters (190 bits). */
export const INVITATION_TOKEN_PREFIX = "inv_";
export const INVITATION_TOKEN_RANDOM_LENGTH = 32;
// The base62 alphabet written out: core/base62.ts draws with node:crypto, which this module, shared with forms in the browser, must not pull in.
const SHAPE = new RegExp(`^${INVITATION_TOKEN_PREFIX}[0-9A-Za-z]{${INVITATION_TOKEN_RANDOM_LENGTH}}$`);

/** An invitation can be accepted for 7 days. */
export const INVITATION_LIFETIME_DAYS = 7;

/** Whether a link's token has the shape of one: anything else is refused before a lookup. */
export function isInvitationToken(value: string): boolean {
  return SHAPE.test(value);
}

/** The page a token's link opens. */
export function invitationPath(token: string): string {
  return `/invite/${token}`;
}
