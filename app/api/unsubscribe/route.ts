import { NextResponse, type NextRequest } from "next/server";
import { unsubscribe } from "@/lib/notifications/unsubscribe";
import { UserFacingError } from "@/lib/errors";

/**
 * RFC 8058's one-click unsubscribe: mail clients POST `List-Unsubscribe=One-Click` to the URL of
 * the email's List-Unsubscribe header. The signed token in the query is the authority; no session,
 * no CSRF token (the mail client has neither).
 */
export async function POST(request: NextRequest) {
  try {
    const target = await unsubscribe(request.nextUrl.searchParams.get("token") ?? "");
    return NextResponse.json({ unsubscribed: { organization: target.orgName, email: target.email, kind: target.kind } });
  } catch (error) {
    if (error instanceof UserFacingError) return NextResponse.json({ error: error.message }, { status: 400 });
    throw error;
  }
}

/** A person who opens the one-click URL itself gets the page that asks first (a GET changes nothing: link scanners open links). */
export function GET(request: NextRequest) {
  const page = request.nextUrl.clone();
  page.pathname = "/unsubscribe";
  return NextResponse.redirect(page, 303);
}
