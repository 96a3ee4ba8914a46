import NextAuth from "next-auth";
import Credentials from "next-auth/providers/credentials";
import { clientOf } from "./client";
import { authorizeCredentials } from "./credentials";
import { authConfig } from "./config";

export const { handlers, auth, signIn, signOut } = NextAuth({
  ...authConfig,
  providers: [
    Credentials({
      credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
      authorize: (credentials, request) => authorizeCredentials(credentials, clientOf(request.headers).ip),
    }),
  ],
});
