import NextAuth, { CredentialsSignin } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import { checkPassword, clearSignInFailures, recentSignInFailures, recordSignInFailure } from "@/db/queries/users";
import { signInInput } from "@/lib/validation";
import { authConfig } from "./config";

/** Failures within 15 minutes after which sign-in is refused for a while. */
export const MAX_FAILURES_PER_EMAIL = 5;
export const MAX_FAILURES_PER_IP = 30;

export class TooManyAttempts extends CredentialsSignin {
  code = "too_many_attempts";
}

/** server.ts sets X-Forwarded-For from the socket unless TRUST_PROXY says a proxy of ours does. */
function clientIp(request: Request): string {
  return request.headers.get("x-forwarded-for")?.split(",")[0]?.trim() || "unknown";
}

export const { handlers, auth, signIn, signOut } = NextAuth({
  ...authConfig,
  providers: [
    Credentials({
      credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
      async authorize(credentials, request) {
        const parsed = signInInput.safeParse(credentials);
        if (!parsed.success) return null;
        const { email, password } = parsed.data;
        const subjects = [`email:${email}`, `ip:${clientIp(request)}`];
        const failures = await recentSignInFailures(subjects);
        if ((failures[subjects[0]!] ?? 0) >= MAX_FAILURES_PER_EMAIL || (failures[subjects[1]!] ?? 0) >= MAX_FAILURES_PER_IP) {
          throw new TooManyAttempts();
        }
        const user = await checkPassword(email, password);
        if (!user) {
          await recordSignInFailure(subjects);
          return null;
        }
        await clearSignInFailures(subjects[0]!);
        return { id: user.id };
      },
    }),
  ],
});
