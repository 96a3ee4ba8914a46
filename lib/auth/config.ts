import type { NextAuthConfig } from "next-auth";
import { NextResponse } from "next/server";

export const PUBLIC_PATHS = ["/signin", "/signup", "/docs"];

function isPublic(pathname: string): boolean {
  return pathname.startsWith("/api/auth") || PUBLIC_PATHS.some((p) => pathname === p || pathname.startsWith(`${p}/`));
}

/**
 * The part of the next-auth configuration that needs no database, shared by proxy.ts and the
 * full configuration. The session is a JWT that holds the user id and nothing else: roles are
 * read from the database on every request.
 */
export const authConfig = {
  trustHost: true,
  session: { strategy: "jwt", maxAge: 60 * 60 * 24 * 14 },
  pages: { signIn: "/signin" },
  providers: [],
  callbacks: {
    authorized({ auth, request }) {
      const { pathname, search } = request.nextUrl;
      if (isPublic(pathname) || auth?.user?.id) return true;
      // next-auth's own redirect would name the page by Next's internal origin, which server.ts
      // fixes to localhost:PORT, so the sign-in page of any other host refused it as foreign and
      // sent the user to "/". A path is right on whichever host the request came in on.
      const signIn = request.nextUrl.clone();
      signIn.pathname = "/signin";
      signIn.search = new URLSearchParams({ callbackUrl: `${pathname}${search}` }).toString();
      return NextResponse.redirect(signIn);
    },
    jwt({ token, user }) {
      const sub = user?.id ?? token.sub;
      return { sub, iat: token.iat, exp: token.exp, jti: token.jti };
    },
    session({ session, token }) {
      return { expires: session.expires, user: { id: token.sub ?? "" } } as typeof session;
    },
  },
} satisfies NextAuthConfig;
