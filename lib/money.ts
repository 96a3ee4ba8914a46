/**
 * Money: integer minor units with an ISO 4217 currency, and the one rounding rule of invoices.
 * Every amount is computed with BigInt so that no intermediate product loses precision; callers
 * decide what to do with a result beyond Number.MAX_SAFE_INTEGER (see `isSafeAmount`).
 */

// Active ISO 4217 codes (funds, precious metals and testing codes without minor units left out).
const BY_EXPONENT: Record<number, string> = {
  0: "BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX UYI VND VUV XAF XOF XPF",
  2:
    "AED AFN ALL AMD AOA ARS AUD AWG AZN BAM BBD BDT BGN BMD BND BOB BOV BRL BSD BTN BWP BYN BZD CAD CDF CHE CHF " +
    "CHW CNY COP COU CRC CUP CVE CZK DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS GIP GMD GTQ GYD HKD HNL HTG " +
    "HUF IDR ILS INR IRR JMD KES KGS KHR KPW KYD KZT LAK LBP LKR LRD LSL MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR " +
    "MWK MXN MXV MYR MZN NAD NGN NIO NOK NPR NZD PAB PEN PGK PHP PKR PLN QAR RON RSD RUB SAR SBD SCR SDG SEK SGD " +
    "SHP SLE SOS SRD SSP STN SVC SYP SZL THB TJS TMT TOP TRY TTD TWD TZS UAH USD USN UYU UZS VED VES WST XCD XCG " +
    "YER ZAR ZMW ZWG",
  3: "BHD IQD JOD KWD LYD OMR TND",
  4: "CLF UYW",
};

const EXPONENTS: ReadonlyMap<string, number> = new Map(
  Object.entries(BY_EXPONENT).flatMap(([exponent, codes]) => codes.split(" ").map((code) => [code, Number(exponent)] as const)),
);

export const CURRENCY_CODES = [...EXPONENTS.keys()].sort() as [string, ...string[]];

/** Digits after the decimal point: 2 for USD (cents), 0 for JPY, 3 for KWD. */
export function minorUnitExponent(currency: string): number {
  const exponent = EXPONENTS.get(currency);
  if (exponent === undefined) throw new Error(`Unknown currency ${currency}`);
  return exponent;
}

/** `formatMoney(123456, "USD")` → "USD 1,234.56"; the code rather than a symbol, so every currency prints. */
export function formatMoney(amount: number | bigint, currency: string): string {
  const exponent = minorUnitExponent(currency);
  const digits = (amount < 0 ? -BigInt(amount) : BigInt(amount)).toString().padStart(exponent + 1, "0");
  const whole = digits.slice(0, digits.length - exponent).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  const fraction = exponent > 0 ? `.${digits.slice(-exponent)}` : "";
  return `${currency} ${amount < 0 ? "-" : ""}${whole}${fraction}`;
}

/** Tax rates are percentages with up to four decimals (8.875 %), kept as parts per million. */
const PPM_PER_PERCENT = 10_000;

export function percentToPpm(percent: number): number {
  return Math.round(percent * PPM_PER_PERCENT);
}

export function ppmToPercent(ppm: number): number {
  return ppm / PPM_PER_PERCENT;
}

interface LineInput {
  quantity: number;
  unitAmount: number;
  taxRatePpm: number;
}

interface LineAmounts {
  amount: bigint;
  tax: bigint;
}

/**
 * The rounding rule: each line's amount is quantity × unit amount (exact); its tax is
 * amount × rate rounded half up to a whole minor unit, per line; the invoice's subtotal and tax
 * are the sums of its lines and its total is subtotal + tax. Amounts and rates are never
 * negative, so half up and half away from zero agree.
 */
export function lineAmounts({ quantity, unitAmount, taxRatePpm }: LineInput): LineAmounts {
  const amount = BigInt(quantity) * BigInt(unitAmount);
  const tax = (amount * BigInt(taxRatePpm) * 2n + 1_000_000n) / 2_000_000n;
  return { amount, tax };
}

export function invoiceTotals(lines: readonly LineAmounts[]): { subtotal: bigint; tax: bigint; total: bigint } {
  const subtotal = lines.reduce((sum, line) => sum + line.amount, 0n);
  const tax = lines.reduce((sum, line) => sum + line.tax, 0n);
  return { subtotal, tax, total: subtotal + tax };
}

export function isSafeAmount(value: bigint): boolean {
  return value >= 0n && value <= BigInt(Number.MAX_SAFE_INTEGER);
}
