import type { IncomingMessage, ServerResponse } from "node:http";
import { describe, expect, it, vi } from "vitest";
import { keepHostThroughActionRedirects } from "@/servers/action-redirect-host";

// What Next.js does after a server action redirects: it fetches the target page from this same
// server, at its internal address, with the action request's headers (fetch drops their Host).

function hostsSeenByNext() {
  const seen: (string | undefined)[] = [];
  const handle = keepHostThroughActionRedirects((req) => seen.push(req.headers.host));
  const receive = (headers: IncomingMessage["headers"]) => {
    const req = { headers: { ...headers } } as IncomingMessage;
    handle(req, {} as ServerResponse);
    return req.headers;
  };
  return { seen, receive };
}

describe("the Host of the page Next.js renders for a server action's redirect", () => {
  it("is the browser's, not the server's internal address", () => {
    const { seen, receive } = hostsSeenByNext();
    const action = receive({ host: "invoicing.example.com" });
    receive({ ...action, host: "localhost:3000" });
    expect(seen).toEqual(["invoicing.example.com", "invoicing.example.com"]);
  });

  it("cannot be chosen by a client sending the carrying header itself", () => {
    const { seen, receive } = hostsSeenByNext();
    receive({ host: "localhost:3000", "x-invoicing-host": "0".repeat(32) + " evil.example" });
    receive({ host: "localhost:3000", "x-invoicing-host": "evil.example" });
    expect(seen).toEqual(["localhost:3000", "localhost:3000"]);
  });

  it("is carried between the workers of one server, whichever the page's request reaches, and not into another server", () => {
    vi.stubEnv("AUTH_SECRET", "one server's secret");
    const [first, second] = [hostsSeenByNext(), hostsSeenByNext()];
    vi.stubEnv("AUTH_SECRET", "another server's secret");
    const other = hostsSeenByNext();
    vi.unstubAllEnvs();
    const action = first.receive({ host: "invoicing.example.com" });
    second.receive({ ...action, host: "localhost:3000" });
    other.receive({ ...action, host: "localhost:3000" });
    expect(second.seen).toEqual(["invoicing.example.com"]);
    expect(other.seen).toEqual(["localhost:3000"]);
  });
});
