import NextAuth from "next-auth";
import { authConfig } from "@/lib/auth/config";

// Signed-out visitors go to /signin?callbackUrl=… (next-auth's `authorized` callback decides).
export const { auth: proxy } = NextAuth(authConfig);

export const config = {
  matcher: ["/((?!_next/static|_next/image|favicon.ico|v1/).*)"],
};
