import NextAuth from "next-auth";
import Credentials from "next-auth/providers/credentials";
import { createSession, endSession } from "@/db/queries/sessions";
import { hasSecondFactor } from "@/db/queries/two-factor";
import { clientOf } from "./client";
import { authorizeCredentials } from "./credentials";
import { authConfig } from "./config";

export const { handlers, auth, signIn, signOut } = NextAuth({
  ...authConfig,
  providers: [
    Credentials({
      credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
      async authorize(credentials, request) {
        const client = clientOf(request.headers);
        const user = await authorizeCredentials(credentials, client.ip);
        if (!user) return null;
        // With a second factor, the password alone makes a session that reaches the second step only (SPEC §16).
        return { id: user.id, sessionId: await createSession(user.id, client, { secondFactorPending: await hasSecondFactor(user.id) }) };
      },
    }),
  ],
  events: {
    // The dashboard's sign-out actions end the session row themselves, before the cookie goes
    // (next-auth only logs an error here); this covers next-auth's own /api/auth/signout.
    async signOut(message) {
      if ("token" in message && message.token?.sid) await endSession(message.token.sid);
    },
  },
});
