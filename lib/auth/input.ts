import { z } from "zod";
import { boundedString, emailSchema, nameSchema } from "@/lib/input-rules";

/** A new account's shortest password (the sign-up forms say so). */
export const PASSWORD_MIN_LENGTH = 10;

const passwordSchema = boundedString(200, "Use at most 200 characters.");
export const signInInput = z.object({
  email: emailSchema,
  password: passwordSchema.min(1, "Enter your password."),
  callbackUrl: boundedString(2048).optional(),
});
export const signUpInput = z.object({
  name: nameSchema(100, "Enter your name."),
  email: emailSchema,
  password: passwordSchema.min(PASSWORD_MIN_LENGTH, `Use at least ${PASSWORD_MIN_LENGTH} characters.`),
  organizationName: nameSchema(100, "Name your organization."),
});
