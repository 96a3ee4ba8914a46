import { describe, expect, it } from "vitest";
import { CURRENCY_CODES, formatMoney, invoiceTotals, isSafeAmount, lineAmounts, minorUnitExponent, percentToPpm, ppmToPercent } from "./money";

describe("currencies", () => {
  it("knows the minor units of ISO 4217 currencies", () => {
    expect(minorUnitExponent("USD")).toBe(2);
    expect(minorUnitExponent("JPY")).toBe(0);
    expect(minorUnitExponent("KWD")).toBe(3);
    expect(minorUnitExponent("CLF")).toBe(4);
  });

  it("lists active codes only, sorted, without duplicates", () => {
    expect(CURRENCY_CODES.length).toBeGreaterThan(150);
    expect([...CURRENCY_CODES].sort()).toEqual(CURRENCY_CODES);
    expect(new Set(CURRENCY_CODES).size).toBe(CURRENCY_CODES.length);
    for (const code of ["XAU", "XXX", "XTS", "HRK", "usd", "ABC"]) expect(CURRENCY_CODES).not.toContain(code);
    expect(() => minorUnitExponent("ABC")).toThrow();
  });

  it("formats amounts with the currency's decimals", () => {
    expect(formatMoney(123456, "USD")).toBe("USD 1,234.56");
    expect(formatMoney(5, "EUR")).toBe("EUR 0.05");
    expect(formatMoney(1234567, "JPY")).toBe("JPY 1,234,567");
    expect(formatMoney(1500, "KWD")).toBe("KWD 1.500");
    expect(formatMoney(-250, "USD")).toBe("USD -2.50");
    expect(formatMoney(Number.MAX_SAFE_INTEGER, "USD")).toBe("USD 90,071,992,547,409.91");
  });
});

describe("tax rates", () => {
  it("keeps four decimals of a percentage exactly", () => {
    expect(percentToPpm(8.875)).toBe(88_750);
    expect(percentToPpm(19)).toBe(190_000);
    expect(percentToPpm(0.0001)).toBe(1);
    expect(ppmToPercent(88_750)).toBe(8.875);
  });
});

describe("the rounding rule", () => {
  it("rounds each line's tax half up to a whole minor unit", () => {
    expect(lineAmounts({ quantity: 1, unitAmount: 250, taxRatePpm: percentToPpm(10) })).toEqual({ amount: 250n, tax: 25n });
    expect(lineAmounts({ quantity: 1, unitAmount: 5, taxRatePpm: percentToPpm(10) })).toEqual({ amount: 5n, tax: 1n }); // 0.5 → 1
    expect(lineAmounts({ quantity: 1, unitAmount: 4, taxRatePpm: percentToPpm(10) })).toEqual({ amount: 4n, tax: 0n }); // 0.4 → 0
    expect(lineAmounts({ quantity: 3, unitAmount: 333, taxRatePpm: percentToPpm(8.875) })).toEqual({ amount: 999n, tax: 89n }); // 88.66…
    expect(lineAmounts({ quantity: 2, unitAmount: 100, taxRatePpm: 0 })).toEqual({ amount: 200n, tax: 0n });
  });

  it("sums rounded lines rather than rounding the sum", () => {
    const lines = [5, 5, 5].map((unitAmount) => lineAmounts({ quantity: 1, unitAmount, taxRatePpm: percentToPpm(10) }));
    expect(invoiceTotals(lines)).toEqual({ subtotal: 15n, tax: 3n, total: 18n }); // 3 × round(0.5), not round(1.5)
  });

  it("computes beyond the safe integer range without losing precision, and says so", () => {
    const line = lineAmounts({ quantity: 1_000, unitAmount: Number.MAX_SAFE_INTEGER, taxRatePpm: 0 });
    expect(line.amount).toBe(9_007_199_254_740_991_000n);
    expect(isSafeAmount(line.amount)).toBe(false);
    expect(isSafeAmount(BigInt(Number.MAX_SAFE_INTEGER))).toBe(true);
  });
});
