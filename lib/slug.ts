/** Top-level paths an organization slug may not take. */
const RESERVED = new Set(["signin", "signup", "signout", "settings", "docs", "api", "v1", "_next", "new", "admin", "static"]);

/** What slugify and uniqueSlug can produce: anything else in a URL names no organization. */
export function isSlug(value: string): boolean {
  return /^[a-z0-9][a-z0-9-]{0,62}$/.test(value);
}

function slugify(name: string): string {
  const base = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 40)
    .replace(/-+$/g, "");
  return base || "org";
}

/** The slugs `name` may take, in order of preference: its slug, then suffixed -2, -3… */
export function* slugCandidates(name: string): Generator<string> {
  const base = slugify(name);
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? base : `${base}-${n}`;
    if (!RESERVED.has(candidate)) yield candidate;
  }
}
