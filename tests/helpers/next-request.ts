import { AsyncLocalStorage } from "node:async_hooks";

/**
 * A browser as the server sees it: its address, user agent and cookie jar. Tests that run the
 * real next-auth code replace `next/headers` with `nextHeadersModule`, whose headers() and
 * cookies() answer for the browser of the request being run (`browser.request(...)`).
 */
export class Browser {
  readonly cookies = new Map<string, string>();

  constructor(
    readonly ip = "203.0.113.10",
    readonly userAgent = "vitest",
    /** Further request headers, as the client (or a proxy) sent them. */
    readonly extraHeaders: Record<string, string> = {},
  ) {}

  /** Runs a server action or page read as a request from this browser. */
  request<T>(run: () => Promise<T>): Promise<T> {
    return current.run(this, run);
  }

  headers(): Headers {
    const headers = new Headers({
      host: "localhost:3000",
      "x-forwarded-proto": "http",
      "x-forwarded-for": this.ip,
      "user-agent": this.userAgent,
      ...this.extraHeaders,
    });
    if (this.cookies.size) headers.set("cookie", [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; "));
    return headers;
  }
}

const current = new AsyncLocalStorage<Browser>();

function browser(): Browser {
  const value = current.getStore();
  if (!value) throw new Error("headers() and cookies() need browser.request(...)");
  return value;
}

interface CookieOptions {
  maxAge?: number;
  expires?: Date;
}

export const nextHeadersModule = {
  headers: async () => browser().headers(),
  cookies: async () => {
    const { cookies } = browser();
    return {
      get: (name: string) => (cookies.has(name) ? { name, value: cookies.get(name)! } : undefined),
      getAll: () => [...cookies].map(([name, value]) => ({ name, value })),
      has: (name: string) => cookies.has(name),
      set: (name: string, value: string, options: CookieOptions = {}) => {
        const expired = options.maxAge === 0 || (options.expires !== undefined && options.expires.getTime() <= Date.now());
        if (expired || value === "") cookies.delete(name);
        else cookies.set(name, value);
      },
      delete: (name: string) => cookies.delete(name),
    };
  },
};
