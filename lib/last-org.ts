/** Remembers the organization a user opened last, so "/" and "/settings/…" land there. */
export const LAST_ORG_COOKIE = "last_org";
