import { request } from "node:http";
import { expect, test } from "@playwright/test";

// next-auth's own routes through server.ts, reached under another host name than the one the
// server started with (Next.js's internal origin is http://localhost:PORT).

interface Answer {
  status: number;
  location: string | undefined;
  cookies: string[];
  body: string;
}

function onHost(baseURL: string, host: string, method: string, path: string, init: { cookie?: string; form?: Record<string, string> } = {}): Promise<Answer> {
  const { hostname, port } = new URL(baseURL);
  const body = init.form ? new URLSearchParams(init.form).toString() : undefined;
  const headers: Record<string, string> = {
    Host: host,
    ...(init.cookie ? { Cookie: init.cookie } : {}),
    ...(body ? { "Content-Type": "application/x-www-form-urlencoded" } : {}),
  };
  return new Promise((resolve, reject) => {
    const outgoing = request({ hostname, port, method, path, headers }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
      incoming.on("end", () =>
        resolve({
          status: incoming.statusCode!,
          location: incoming.headers.location,
          cookies: (incoming.headers["set-cookie"] ?? []).map((line) => line.split(";")[0]!),
          body: Buffer.concat(chunks).toString("utf8"),
        }),
      );
    });
    outgoing.on("error", reject);
    outgoing.end(body);
  });
}

test("next-auth's sign-in and sign-out redirects stay on the host the client called, never localhost", async ({ baseURL }) => {
  const host = "example.test";
  const signIn = await onHost(baseURL!, host, "GET", "/api/auth/signin");
  expect(signIn.status).toBe(302);
  const page = new URL(signIn.location!, `http://${host}`);
  expect(`${page.origin}${page.pathname}`).toBe(`http://${host}/signin`);
  expect(new URL(page.searchParams.get("callbackUrl")!, `http://${host}`).origin).toBe(`http://${host}`);

  const csrf = await onHost(baseURL!, host, "GET", "/api/auth/csrf");
  const { csrfToken } = JSON.parse(csrf.body) as { csrfToken: string };
  // As a browser's jar keeps them: the last value of each name (proxy.ts's session check sets a csrf cookie too).
  const jar = new Map(csrf.cookies.map((cookie) => [cookie.split("=")[0]!, cookie]));
  const signOut = await onHost(baseURL!, host, "POST", "/api/auth/signout", {
    cookie: [...jar.values()].join("; "),
    form: { csrfToken, callbackUrl: `http://${host}/signin` },
  });
  expect(signOut.status).toBe(302);
  // A path: the browser stays on the address it called, whatever name a proxy calls us by.
  expect(signOut.location).toBe("/signin");
});
