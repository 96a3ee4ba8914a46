import NextAuth from "next-auth";
import type { NextFetchEvent, NextRequest } from "next/server";
import { authConfig } from "@/lib/auth/config";

const { auth } = NextAuth(authConfig);
const authorize = auth as unknown as (request: NextRequest, event: NextFetchEvent) => Promise<Response | undefined>;

/** Signed-out visitors go to /signin?callbackUrl=… (next-auth's `authorized` callback decides). */
export function proxy(request: NextRequest, event: NextFetchEvent) {
  return authorize(request, event);
}

export const config = {
  matcher: ["/((?!_next/static|_next/image|favicon.ico|v1/).*)"],
};
