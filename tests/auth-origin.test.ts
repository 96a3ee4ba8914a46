import { eq } from "drizzle-orm";
import { NextRequest } from "next/server";
import { describe, expect, it, vi } from "vitest";
import { getDb } from "@/db";
import { users } from "@/db/schema";
import { hashPassword } from "@/lib/auth/password";
import { addMember, createOrg } from "./helpers/factories";

vi.hoisted(() => {
  process.env.AUTH_SECRET = "vitest-secret-not-for-production-0123456789";
});
const { GET, POST } = await import("@/app/api/auth/[...nextauth]/route");

// next-auth's own routes as server.ts's Next.js hands them over: the URL on Next's internal origin
// (server.ts starts Next as localhost:PORT), the headers as the client sent them, with
// X-Forwarded-Host and -Proto filled in by Next.js from the Host header and the socket (or, behind
// TRUST_PROXY, as the proxy sent them; tests/http-edges.test.ts checks that the listener drops a
// client's own).

const INTERNAL_ORIGIN = "http://localhost:3000";

function asNextHandsIt(path: string, headers: Record<string, string>, init: { method?: string; body?: string } = {}): NextRequest {
  const forwarded = { "x-forwarded-host": headers.host!, "x-forwarded-proto": "http", ...headers };
  return new NextRequest(`${INTERNAL_ORIGIN}${path}`, {
    ...init,
    headers: init.body ? { ...forwarded, "content-type": "application/x-www-form-urlencoded" } : forwarded,
  });
}

/** The csrf token and its cookie, as the sign-out form carries them. */
async function csrfFor(host: Record<string, string>): Promise<{ token: string; cookie: string }> {
  const response = await GET(asNextHandsIt("/api/auth/csrf", host));
  const cookie = response.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ");
  return { token: ((await response.json()) as { csrfToken: string }).csrfToken, cookie };
}

/** Where a redirect sends the browser, read on the origin it called, and where the sign-in page will send it back. */
function destinations(response: Response, calledOrigin: string): { page: string; callback: string | null } {
  const page = new URL(response.headers.get("location")!, calledOrigin);
  const callback = page.searchParams.get("callbackUrl");
  return { page: `${page.origin}${page.pathname}`, callback: callback && new URL(callback, calledOrigin).origin };
}

describe("next-auth's own /api/auth/* redirects", () => {
  it("send GET /api/auth/signin to the sign-in page of the host the client called, not localhost", async () => {
    const response = await GET(asNextHandsIt("/api/auth/signin", { host: "example.test" }));
    expect(response.status).toBe(302);
    expect(destinations(response, "http://example.test")).toEqual({ page: "http://example.test/signin", callback: "http://example.test" });
  });

  it("send a sign-out through /api/auth/signout back to the host the client called, not localhost", async () => {
    const host = { host: "example.test" };
    const { token, cookie } = await csrfFor(host);
    const body = new URLSearchParams({ csrfToken: token, callbackUrl: "http://example.test/signin" }).toString();
    const response = await POST(asNextHandsIt("/api/auth/signout", { ...host, cookie }, { method: "POST", body }));
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/signin");

    // A path that a browser would read as another host keeps its origin; another site is refused as before.
    const signOutTo = async (callbackUrl: string) =>
      (
        await POST(
          asNextHandsIt("/api/auth/signout", { ...host, cookie }, { method: "POST", body: new URLSearchParams({ csrfToken: token, callbackUrl }).toString() }),
        )
      ).headers.get("location");
    expect(await signOutTo("http://example.test//evil.example/x")).toBe("http://example.test//evil.example/x");
    expect(await signOutTo("https://evil.example/x")).toBe("/");
  });

  it("send a sign-in through /api/auth/callback/credentials, right or wrong, to a path on the host the client called", async () => {
    const user = await addMember((await createOrg("pro")).id, "admin", "Cora Credentials");
    await getDb()
      .update(users)
      .set({ passwordHash: await hashPassword("the-right-password") })
      .where(eq(users.id, user.id));
    const host = { host: "example.test" };
    const { token, cookie } = await csrfFor(host);
    const signIn = (password: string) =>
      POST(
        asNextHandsIt(
          "/api/auth/callback/credentials",
          { ...host, cookie },
          { method: "POST", body: new URLSearchParams({ csrfToken: token, email: user.email, password, callbackUrl: "/acme/settings/api" }).toString() },
        ),
      );
    const right = await signIn("the-right-password");
    expect(right.status).toBe(302);
    expect(right.headers.get("location")).toBe("/acme/settings/api");
    expect(right.headers.getSetCookie().some((line) => line.startsWith("authjs.session-token="))).toBe(true);
    const wrong = await signIn("a-wrong-password");
    expect(wrong.headers.get("location")).toBe("/signin?error=CredentialsSignin&code=credentials");
  });

  it("keep the browser on the address it called when a proxy calls us as localhost:PORT (Host rewritten, nothing forwarded)", async () => {
    // nginx's default `proxy_set_header Host $proxy_host`: every name the request carries is ours, none the browser's.
    const proxied = { host: "localhost:3000" };
    const signInPage = await GET(asNextHandsIt("/api/auth/signin", proxied));
    expect(signInPage.headers.get("location")).toMatch(/^\/signin\?/);
    const { token, cookie } = await csrfFor(proxied);
    const wrong = await POST(
      asNextHandsIt(
        "/api/auth/callback/credentials",
        { ...proxied, cookie },
        { method: "POST", body: new URLSearchParams({ csrfToken: token, email: "nobody@example.test", password: "a-wrong-password" }).toString() },
      ),
    );
    expect(wrong.headers.get("location")).toBe("/signin?error=CredentialsSignin&code=credentials");
    const signOut = await POST(
      asNextHandsIt(
        "/api/auth/signout",
        { ...proxied, cookie },
        { method: "POST", body: new URLSearchParams({ csrfToken: token, callbackUrl: "/signin" }).toString() },
      ),
    );
    expect(signOut.status).toBe(302);
    expect(signOut.headers.get("location")).toBe("/signin");
    expect(new URL(signOut.headers.get("location")!, "https://invoicing.example.com").href).toBe("https://invoicing.example.com/signin");
  });

  it("use the address a proxy of ours forwarded, over HTTPS", async () => {
    const response = await GET(
      asNextHandsIt("/api/auth/signin", { host: "10.0.0.5:3000", "x-forwarded-host": "invoicing.example.com", "x-forwarded-proto": "https" }),
    );
    expect(destinations(response, "https://invoicing.example.com")).toEqual({
      page: "https://invoicing.example.com/signin",
      callback: "https://invoicing.example.com",
    });
  });
});
