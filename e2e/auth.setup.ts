import { expect, test } from "@playwright/test";
import { DEMO_PASSWORD, storageStateOf, USERS, type DemoRole } from "./fixtures";
import { E2E_WORKERS, serverOrigin } from "./servers";

// Sessions are rows of each server's own database, so every role signs in on every server; the
// sign-ins are independent, so they spread over the workers. They go through next-auth's own
// credentials endpoint, the one the sign-in form's action ends in, without drawing the form: the
// form itself is driven in auth.spec.ts, and a browser page per role and server cost 3.5 s each.
test.describe.configure({ mode: "parallel" });
for (let server = 0; server < E2E_WORKERS; server++) {
  for (const role of Object.keys(USERS) as DemoRole[]) {
    test(`sign in as ${role} on server ${server}`, async ({ playwright }) => {
      const request = await playwright.request.newContext({ baseURL: serverOrigin(server) });
      const { csrfToken } = (await (await request.get("/api/auth/csrf")).json()) as { csrfToken: string };
      const signedIn = await request.post("/api/auth/callback/credentials", {
        form: { email: USERS[role].email, password: DEMO_PASSWORD, csrfToken, callbackUrl: `/${USERS[role].lands}/settings/api` },
      });
      // The session's cookie is set and the landing page of the role's organization opens with it.
      expect(new URL(signedIn.url()).pathname).toBe(`/${USERS[role].lands}/settings/api`);
      expect(signedIn.status()).toBe(200);
      expect(await signedIn.text()).toContain("API keys");
      await request.storageState({ path: storageStateOf(role, server) });
      await request.dispose();
    });
  }
}
