import { NextResponse, type NextRequest } from "next/server";
import { clientOf } from "@/lib/auth/client";
import { receiveReport } from "@/lib/secret-scanning/receive-report";

/**
 * GitHub's secret scanning partner program reports tokens matching our key pattern that
 * were pushed to public repositories. Signed by GitHub, not by a session: no cookie, no CSRF token.
 */
export async function POST(request: NextRequest) {
  const received = await receiveReport(request, clientOf(request.headers).ip);
  if (received.status === 200) return NextResponse.json(received.labels);
  return NextResponse.json(
    { error: { code: received.code, message: received.message } },
    { status: received.status, headers: received.retryAfterSeconds ? { "Retry-After": String(received.retryAfterSeconds) } : undefined },
  );
}
