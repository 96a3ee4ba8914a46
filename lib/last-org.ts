/** Remembers the organization a user opened last, so "/" and "/settings/…" land there. */
export const LAST_ORG_COOKIE = "last_org";

/**
 * Where an organization-less link (`/`, `/settings/api/audit?key=…&status=4xx`) lands: the same
 * settings page of `orgSlug`, with the link's filters. The path is built from its encoded segments
 * and only the search params are carried over (re-encoded), so the target stays on this site.
 */
export function orgSettingsPath(orgSlug: string, rest: string[], searchParams: Record<string, string | string[] | undefined> = {}): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(searchParams)) {
    for (const each of Array.isArray(value) ? value : value === undefined ? [] : [value]) query.append(name, each);
  }
  const search = query.size > 0 ? `?${query}` : "";
  return `/${encodeURIComponent(orgSlug)}/settings/${rest.map(encodeURIComponent).join("/") || "api"}${search}`;
}
