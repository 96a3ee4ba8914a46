import type { NextRequest } from "next/server";
import { handlers } from "@/lib/auth";
import { onRequestOrigin, ownRedirectsAsPaths } from "@/lib/auth/request-origin";

/** next-auth on the origin the client called, its redirects to this site as paths (lib/auth/request-origin.ts says why). */
async function onOwnOrigin(handle: (request: NextRequest) => Promise<Response>, request: NextRequest): Promise<Response> {
  const onOrigin = onRequestOrigin(request);
  return ownRedirectsAsPaths(await handle(onOrigin), [request.nextUrl.origin, onOrigin.nextUrl.origin]);
}

export const GET = (request: NextRequest) => onOwnOrigin(handlers.GET, request);
export const POST = (request: NextRequest) => onOwnOrigin(handlers.POST, request);
