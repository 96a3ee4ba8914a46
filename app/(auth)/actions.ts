"use server";

import { AuthError } from "next-auth";
import { z } from "zod";
import { createUserWithOrganization, EmailTakenError } from "@/db/queries/users";
import { publicAction } from "@/lib/action";
import { signIn, signOut } from "@/lib/auth";
import { UserFacingError } from "@/lib/errors";
import { safeCallbackPath } from "@/lib/safe-redirect";
import { signInInput, signUpInput } from "@/lib/validation";

async function signInOrExplain(email: string, password: string, redirectTo: string): Promise<never> {
  try {
    await signIn("credentials", { email, password, redirectTo });
  } catch (error) {
    if (error instanceof AuthError) {
      const code = (error as AuthError & { code?: string }).code;
      if (code === "too_many_attempts") {
        throw new UserFacingError("Too many failed sign-in attempts for this account. Try again in 15 minutes.");
      }
      // The same message whether or not the email has an account.
      throw new UserFacingError("That email and password do not match an account.");
    }
    throw error; // the redirect that signs the user in
  }
  throw new Error("signIn returned without redirecting");
}

export const signInAction = publicAction(signInInput, async ({ email, password, callbackUrl }) =>
  signInOrExplain(email, password, safeCallbackPath(callbackUrl)),
);

export const signUpAction = publicAction(signUpInput, async (input) => {
  try {
    const { orgSlug } = await createUserWithOrganization(input);
    return await signInOrExplain(input.email, input.password, `/${orgSlug}/settings/api`);
  } catch (error) {
    if (error instanceof EmailTakenError) throw new UserFacingError(error.message, { email: [error.message] });
    throw error;
  }
});

export const signOutAction = publicAction(z.object({}), async () => {
  await signOut({ redirectTo: "/signin" });
});
