/**
 * A new account's shortest password: the sign-up forms say so, and lib/auth/input.ts holds them to
 * it. A module of its own, free of zod, so the forms that print it bring no schema to the browser.
 */
export const PASSWORD_MIN_LENGTH = 10;
