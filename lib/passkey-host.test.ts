import { describe, expect, it } from "vitest";
import { passkeyHostProblem } from "./passkey-host";

describe("an address the browser refuses for passkeys", () => {
  it.each([
    ["http://127.0.0.1:3000/settings/security", "Passkeys need the dashboard's host name, not an IP address: open it at http://localhost:3000."],
    ["http://[::1]:3100/signin/two-factor", "Passkeys need the dashboard's host name, not an IP address: open it at http://localhost:3100."],
    ["https://10.0.0.5/settings/security", "Passkeys need the dashboard's host name, not an IP address: open it by its host name."],
    ["https://[2001:db8::1]:8443/", "Passkeys need the dashboard's host name, not an IP address: open it by its host name."],
  ])("%s: says which address works", (address, said) => {
    expect(passkeyHostProblem(new URL(address))).toBe(said);
  });

  it.each(["http://localhost:3000/settings/security", "https://invoicing.example.com/", "https://127-0-0-1.nip.example/", "https://v1.example/"])(
    "%s: none",
    (address) => {
      expect(passkeyHostProblem(new URL(address))).toBeNull();
    },
  );
});
