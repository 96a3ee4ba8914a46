import { describe, expect, it } from "vitest";
import { describeAlert } from "@/lib/alerts/text";
import type { AlertDto } from "@/db/queries/alerts";

const leaked = (url: string): AlertDto => ({
  id: 1,
  kind: "key_leaked",
  createdAt: "2026-11-27T10:00:00.000Z",
  read: false,
  apiKey: { id: "key_1", name: "Production billing" },
  details: { url, source: "content", response: "revoke" },
});

describe("a leaked key's alert", () => {
  it("names the URL the scanner reported", () => {
    expect(describeAlert(leaked("https://github.com/someone/app/blob/abc/.env"), "acme").detail).toMatch(
      /^A secret scanner reported it at https:\/\/github\.com\/someone\/app\/blob\/abc\/\.env\. It was revoked/,
    );
  });

  it("reads as a sentence when the report named no URL", () => {
    expect(describeAlert(leaked(""), "acme").detail).toMatch(/^A secret scanner reported it in a public place it did not name\. It was revoked/);
  });
});
