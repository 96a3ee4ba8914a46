import type { NextRequest } from "next/server";
import { liveTailResponse } from "./live-tail-response";

export const dynamic = "force-dynamic";

export async function GET(request: NextRequest, { params }: { params: Promise<{ orgSlug: string }> }) {
  const { orgSlug } = await params;
  return liveTailResponse(orgSlug, request.nextUrl.searchParams, request.headers.get("last-event-id"), request.signal);
}
