/**
 * An email domain as single sign-on keeps it (docs/features/sso.md#domains): lower case, its
 * ASCII (punycode) form, no trailing dot, a public name of at least two labels, and not a public
 * email provider's, whose addresses belong to anyone.
 */

export const DOMAIN_MAX = 253;

/** Public email providers: no organization's people are all of theirs. A short list of the largest, not every one. */
export const PUBLIC_EMAIL_DOMAINS: ReadonlySet<string> = new Set([
  "gmail.com",
  "googlemail.com",
  "outlook.com",
  "hotmail.com",
  "live.com",
  "msn.com",
  "yahoo.com",
  "ymail.com",
  "icloud.com",
  "me.com",
  "mac.com",
  "aol.com",
  "proton.me",
  "protonmail.com",
  "pm.me",
  "gmx.com",
  "gmx.de",
  "web.de",
  "mail.com",
  "yandex.com",
  "zoho.com",
  "fastmail.com",
  "hey.com",
  "qq.com",
  "163.com",
]);

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const TOP_LEVEL = /^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;

/** `text` as it is kept: trimmed, lower case, without a trailing dot, a name in another script in its punycode form. */
export function normalizeDomain(text: string): string {
  const domain = text.trim().toLowerCase().replace(/\.$/, "");
  // The URL parser writes a name as DNS does (UTS #46), in the browser and on the server alike.
  if (!/^[\x21-\x7e]*$/.test(domain) && !/[/:@?#\\\s]/.test(domain)) {
    try {
      return new URL(`http://${domain}`).hostname;
    } catch {
      return domain;
    }
  }
  return domain;
}

/** What is wrong with a normalized domain, or null. */
export function domainProblem(domain: string): string | null {
  if (!domain) return "Enter your email domain, such as example.com.";
  if (/[/:@?#\\\s]/.test(domain)) return "Enter the domain alone, such as example.com: no spaces, https://, @ or path.";
  if (domain.length > DOMAIN_MAX) return `A domain has at most ${DOMAIN_MAX} characters.`;
  const labels = domain.split(".");
  if (labels.length < 2 || !labels.every((label) => LABEL.test(label)) || !TOP_LEVEL.test(labels.at(-1)!))
    return "Enter a domain such as example.com: letters, digits and hyphens, in parts separated by dots.";
  if (PUBLIC_EMAIL_DOMAINS.has(domain)) return `${domain} is a public email provider's: anyone can have an address there. Add your organization's own domain.`;
  return null;
}

/** The DNS name of the TXT record that proves the domain: a label of ours, so it does not mix with the domain's other TXT records. */
export function verificationRecordName(domain: string): string {
  return `_invoicing-verification.${domain}`;
}

/** The value that record must hold. */
export function verificationRecordValue(token: string): string {
  return `invoicing-verification=${token}`;
}
