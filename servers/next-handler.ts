import type { IncomingMessage, ServerResponse } from "node:http";
import next from "next";
import { keepHostThroughActionRedirects } from "@/servers/action-redirect-host";

/**
 * Next.js, prepared to take requests: its handler (Hosts kept through a server action's redirect,
 * servers/action-redirect-host.ts) and how to close it. `port` is the public one, where Next.js fetches
 * the page an action redirects to.
 */
export async function prepareNext(options: {
  dev: boolean;
  port: number;
}): Promise<{ handleNext: (req: IncomingMessage, res: ServerResponse) => unknown; close: () => Promise<void> }> {
  const app = next({ dev: options.dev, hostname: "localhost", port: options.port });
  const handleNext = keepHostThroughActionRedirects(app.getRequestHandler());
  await app.prepare();
  return { handleNext, close: async () => app.close?.() };
}
