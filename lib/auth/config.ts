import type { NextAuthConfig } from "next-auth";

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
      return isPublic(request.nextUrl.pathname) || Boolean(auth?.user?.id);
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
