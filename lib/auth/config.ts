import type { NextAuthConfig } from "next-auth";
import { NextResponse } from "next/server";
import { SESSION_IDLE_SECONDS } from "@/db/schema";

const PUBLIC_PATHS = ["/signin", "/signup", "/invite", "/docs", "/unsubscribe", "/api/unsubscribe", "/api/secret-scanning"];

declare module "next-auth" {
  interface Session {
    /** The row in `sessions` this cookie stands for; checked on every server-side read. */
    sessionId?: string;
    /** Made by the password alone, of a person with a second factor still to give. */
    secondFactorPending?: boolean;
  }
  interface User {
    sessionId?: string;
    secondFactorPending?: boolean;
  }
}

declare module "@auth/core/jwt" {
  interface JWT {
    sid?: string;
    /** The password step's token: its session id is renewed when the second factor passes. */
    pending?: true;
  }
}

/**
 * Marks proxy.ts's decision for a request that carries a password step's cookie: next-auth sends
 * every request's cookie back with a later expiry, and this one, answered after the second step
 * gave the session a new id, would put back the old id, which names no session any more.
 */
export const HALF_SESSION_HEADER = "x-half-session";

function isPublic(pathname: string): boolean {
  return pathname.startsWith("/api/auth") || PUBLIC_PATHS.some((p) => pathname === p || pathname.startsWith(`${p}/`));
}

/**
 * The part of the next-auth configuration that needs no database, shared by proxy.ts and the
 * full configuration. The session is a JWT that holds the user id and the id of a server-side
 * session row (lib/session.ts checks the row), nothing else: roles are read from the database on
 * every request.
 */
export const authConfig = {
  trustHost: true,
  session: { strategy: "jwt", maxAge: SESSION_IDLE_SECONDS },
  pages: { signIn: "/signin" },
  providers: [],
  callbacks: {
    authorized({ auth, request }) {
      if (auth?.secondFactorPending) return NextResponse.next({ headers: { [HALF_SESSION_HEADER]: "1" } });
      const { pathname, search } = request.nextUrl;
      if (isPublic(pathname) || (auth?.user?.id && auth.sessionId)) return true;
      // next-auth's own redirect would name the page by Next's internal origin, which server.ts
      // fixes to localhost:PORT, so the sign-in page of any other host refused it as foreign and
      // sent the user to "/". A path is right on whichever host the request came in on.
      const signIn = request.nextUrl.clone();
      signIn.pathname = "/signin";
      signIn.search = new URLSearchParams({ callbackUrl: `${pathname}${search}` }).toString();
      return NextResponse.redirect(signIn);
    },
    jwt({ token, user }) {
      const { sub, sid, pending } = user ? { sub: user.id, sid: user.sessionId, pending: user.secondFactorPending ? (true as const) : undefined } : token;
      return { sub, sid, pending, iat: token.iat, exp: token.exp, jti: token.jti };
    },
    session({ session, token }) {
      return { expires: session.expires, user: { id: token.sub ?? "" }, sessionId: token.sid, secondFactorPending: token.pending === true } as typeof session;
    },
  },
} satisfies NextAuthConfig;
