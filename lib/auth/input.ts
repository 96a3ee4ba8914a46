import { z } from "zod";
import { PASSWORD_MIN_LENGTH } from "@/lib/auth/password-length";
import { boundedString, emailSchema, nameSchema } from "@/lib/input-rules";

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
