import NextAuth from "next-auth";
import Credentials from "next-auth/providers/credentials";
import { authorizeCredentials } from "./credentials";
import { authConfig } from "./config";

/** server.ts sets X-Forwarded-For from the socket unless TRUST_PROXY says a proxy of ours does. */
function clientIp(request: Request): string {
  return request.headers.get("x-forwarded-for")?.split(",")[0]?.trim() || "unknown";
}

export const { handlers, auth, signIn, signOut } = NextAuth({
  ...authConfig,
  providers: [
    Credentials({
      credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
      authorize: (credentials, request) => authorizeCredentials(credentials, clientIp(request)),
    }),
  ],
});
