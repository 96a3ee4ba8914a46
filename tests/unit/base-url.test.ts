import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { publicBaseUrl } from "@/lib/base-url";
import { Browser } from "../helpers/next-request";

vi.mock("next/headers", async () => (await import("../helpers/next-request")).nextHeadersModule);

const forwarded = { host: "app.example.com:3000", "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" };
const baseUrlFor = (headers: Record<string, string>) => new Browser(undefined, undefined, headers).request(publicBaseUrl);

describe("the public address shown in the dashboard's examples", () => {
  // The test setup sets one for every other file.
  beforeEach(() => vi.stubEnv("PUBLIC_BASE_URL", ""));
  afterEach(() => vi.unstubAllEnvs());

  it("ignores a client's own X-Forwarded-Host and -Proto unless TRUST_PROXY is true", async () => {
    vi.stubEnv("TRUST_PROXY", "");
    expect(await baseUrlFor(forwarded)).toBe("https://app.example.com:3000");
    expect(await baseUrlFor({ ...forwarded, host: "127.0.0.1:3000" })).toBe("http://127.0.0.1:3000");
  });

  it("takes them from a proxy of ours when TRUST_PROXY is true", async () => {
    vi.stubEnv("TRUST_PROXY", "true");
    expect(await baseUrlFor({ ...forwarded, "x-forwarded-host": "api.example.com" })).toBe("https://api.example.com");
  });

  it("prefers PUBLIC_BASE_URL to any header", async () => {
    vi.stubEnv("PUBLIC_BASE_URL", "https://invoicing.example.com/");
    expect(await baseUrlFor(forwarded)).toBe("https://invoicing.example.com");
  });
});
