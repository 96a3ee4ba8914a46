import { generate } from "otplib";
import { beforeAll, describe, expect, it } from "vitest";
import { hashRecoveryCode, newRecoveryCodes, normalizeRecoveryCode, RECOVERY_CODE_COUNT } from "@/lib/auth/recovery-codes";
import { openSecret, sealSecret } from "@/lib/auth/sealed-secret";
import { isSealed, webhookCredentials } from "@/core/sealed-secret";
import { newTotpSecret, TOTP_PERIOD_SECONDS, totpStepOf, totpUri } from "@/lib/auth/totp";

beforeAll(() => {
  process.env.AUTH_SECRET ??= "unit-tests-secret-0123456789abcdef";
});

const codeAt = (secret: string, at: number) => generate({ secret, epoch: Math.floor(at / 1000) });

describe("TOTP (RFC 6238, 6 digits, 30 s)", () => {
  const now = Date.UTC(2026, 10, 26, 12, 0, 10);
  const step = Math.floor(now / 1000 / TOTP_PERIOD_SECONDS);

  it("takes the current code and says which 30-second step it belongs to", async () => {
    const secret = newTotpSecret();
    expect(await totpStepOf(secret, await codeAt(secret, now), now)).toBe(step);
  });

  it("takes the step before and after for a phone's clock drift, and nothing further", async () => {
    const secret = newTotpSecret();
    const period = TOTP_PERIOD_SECONDS * 1000;
    expect(await totpStepOf(secret, await codeAt(secret, now - period), now)).toBe(step - 1);
    expect(await totpStepOf(secret, await codeAt(secret, now + period), now)).toBe(step + 1);
    expect(await totpStepOf(secret, await codeAt(secret, now - 2 * period), now)).toBeNull();
    expect(await totpStepOf(secret, await codeAt(secret, now + 2 * period), now)).toBeNull();
  });

  it("refuses another secret's code and anything that is not six digits", async () => {
    const secret = newTotpSecret();
    expect(await totpStepOf(newTotpSecret(), await codeAt(secret, now), now)).toBeNull();
    for (const bad of ["", "12345", "1234567", "abcdef", "12 456"]) expect(await totpStepOf(secret, bad, now)).toBeNull();
  });

  it("writes the otpauth URI authenticator apps read, with the issuer and the account", () => {
    const uri = new URL(totpUri("JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP", "sam@example.test"));
    expect(uri.protocol).toBe("otpauth:");
    expect(uri.host).toBe("totp");
    expect(uri.searchParams.get("secret")).toBe("JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP");
    expect(uri.searchParams.get("issuer")).toBe("Invoicing");
    expect(decodeURIComponent(uri.pathname)).toContain("sam@example.test");
  });
});

describe("recovery codes", () => {
  it(`makes ${RECOVERY_CODE_COUNT} different codes of the form xxxxx-xxxxx`, () => {
    const codes = newRecoveryCodes();
    expect(codes).toHaveLength(RECOVERY_CODE_COUNT);
    expect(new Set(codes).size).toBe(RECOVERY_CODE_COUNT);
    for (const code of codes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
  });

  it("hashes a code the same however it is typed, and refuses what cannot be one", () => {
    const [code] = newRecoveryCodes() as [string];
    expect(hashRecoveryCode(` ${code.toUpperCase().replace("-", " ")} `)).toBe(hashRecoveryCode(code));
    expect(hashRecoveryCode(code)).not.toBe(hashRecoveryCode(newRecoveryCodes()[0]!));
    for (const bad of ["", "abcde", "abcde-abcde-a", "0oil1-abcde"]) expect(normalizeRecoveryCode(bad)).toBeNull();
  });
});

describe("sealed secrets", () => {
  it("opens what it sealed, seals the same secret differently each time, and refuses a changed byte", () => {
    const sealed = sealSecret("JBSWY3DPEHPK3PXP");
    expect(openSecret(sealed)).toBe("JBSWY3DPEHPK3PXP");
    expect(sealSecret("JBSWY3DPEHPK3PXP")).not.toBe(sealed);
    const [version, iv, data, tag] = sealed.split(".") as [string, string, string, string];
    const flipped = (data[0] === "A" ? "B" : "A") + data.slice(1);
    expect(() => openSecret([version, iv, flipped, tag].join("."))).toThrow();
    expect(() => openSecret("not sealed")).toThrow();
  });

  it("seals each use under a key of its own: a webhook credential does not open as an authenticator's secret, nor the reverse", () => {
    const credential = webhookCredentials.seal("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw");
    expect(webhookCredentials.open(credential)).toBe("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw");
    expect(() => openSecret(credential)).toThrow();
    expect(() => webhookCredentials.open(sealSecret("JBSWY3DPEHPK3PXP"))).toThrow();
    expect([isSealed(credential), isSealed("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"), isSealed("https://hooks.slack.com/services/T/B/x")]).toEqual([
      true,
      false,
      false,
    ]);
  });

  it("still opens what was sealed before: each purpose keeps its key", () => {
    // Sealed under this AUTH_SECRET by the code of the release that wrote them (an authenticator's
    // secret before webhook credentials were sealed): a renamed purpose would lose every stored secret.
    const authSecret = process.env.AUTH_SECRET;
    process.env.AUTH_SECRET = "unit-tests-secret-0123456789abcdef";
    try {
      expect(openSecret("v1.X3Ir1kEVVIVLqPrj.qjOUN02rcpxTkIv9DnTsgw.dzFY0zdHGfdpU0CQ-s3Dow")).toBe("JBSWY3DPEHPK3PXP");
      expect(webhookCredentials.open("v1.xpfeNhaiAdrubxO_.4TFbo8cvUoBa0q3I0gMUJsT1XcdCrqPUN-Zji3sCAo0sgpbikzo.rQWMyG_TM6BgrrnfVv-LgQ")).toBe(
        "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
      );
    } finally {
      process.env.AUTH_SECRET = authSecret;
    }
  });
});
