import NextAuth from "next-auth";
import Credentials from "next-auth/providers/credentials";
import { createSession, endSession, renewSessionId } from "@/db/queries/sessions";
import { hasSecondFactor } from "@/db/queries/two-factor";
import { clientOf } from "./client";
import { authorizeCredentials } from "./credentials";
import { authConfig } from "./config";
import { redeemSsoSignIn } from "./sso-ticket";

export const {
  handlers,
  auth,
  signIn,
  signOut,
  unstable_update: update,
} = NextAuth({
  ...authConfig,
  callbacks: {
    ...authConfig.callbacks,
    // An update of the session (renewSession below, or a client's POST to /api/auth/session)
    // gives it a new id from the database; what the update sends is ignored, so no client can
    // name the id its cookie gets. A session that has ended loses its cookie.
    async jwt(params) {
      const token = authConfig.callbacks.jwt(params);
      if (params.trigger !== "update" || !token.sid || !token.sub) return token;
      const sid = await renewSessionId(token.sid, token.sub);
      // A whole session's token from here on: the password step's is never sent again (proxy.ts).
      return sid ? { ...token, sid, pending: undefined } : null;
    },
  },
  providers: [
    Credentials({
      credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
      async authorize(credentials, request) {
        const client = clientOf(request.headers);
        const user = await authorizeCredentials(credentials, client.ip);
        if (!user) return null;
        // With a second factor, the password alone makes a session that reaches the second step only (docs/features/two-factor.md).
        const secondFactorPending = await hasSecondFactor(user.id);
        return { id: user.id, sessionId: await createSession(user.id, client, { secondFactorPending }), secondFactorPending };
      },
    }),
    // The end of a sign-in through an organization's provider (docs/features/sso.md#signing-in):
    // the callback checked the provider's answer and left a one-time ticket, exchanged here.
    Credentials({
      id: "sso",
      credentials: { ticket: {} },
      async authorize(credentials, request) {
        const signedIn = await redeemSsoSignIn(credentials.ticket);
        if (!signedIn) return null;
        const sessionId = await createSession(signedIn.userId, clientOf(request.headers), { secondFactorPending: false, ssoOrgId: signedIn.orgId });
        return { id: signedIn.userId, sessionId, secondFactorPending: false };
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

/**
 * Gives this browser's session a new id and the browser a cookie that names it; a copy of the old
 * cookie names no session from then on. Returns the new id.
 */
export async function renewSession(): Promise<string> {
  const renewed = await update({});
  if (!renewed?.sessionId) throw new Error("The session ended while its id was being renewed");
  return renewed.sessionId;
}
