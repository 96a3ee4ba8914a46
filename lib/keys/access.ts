import {
  API_RESOURCE_NAMES,
  API_RESOURCES,
  permissionRank,
  type ApiResource,
  type KeyAccess,
  type KeyRestrictions,
  type KeyScopes,
  type Permission,
} from "@/core/enums";

/** Restricted keys for requests and people: what a request needs, and what a key can do, from the resource table of core/enums.ts. */

export const KEY_ACCESS_LABELS = {
  full: "Full access",
  read_only: "Read only",
  restricted: "Restricted",
} as const satisfies Record<KeyAccess, string>;

export const PERMISSION_LABELS = { none: "None", read: "Read", write: "Write", generate: "Generate" } as const;

/** What a request needs: the resource of its path and a permission there. */
export interface RequiredAccess {
  resource: ApiResource;
  permission: Permission;
}

const SAFE_METHODS = new Set(["GET", "HEAD"]);

/** GET and HEAD: what a read-only key may send. */
export function isSafeMethod(method: string): boolean {
  return SAFE_METHODS.has(method.toUpperCase());
}

/**
 * The permission a request needs: a safe method needs the resource's lowest permission (read),
 * any other method its highest (write; generate for PDFs). Null for a path of no resource, which
 * has nothing to guard (it answers 404).
 */
export function requiredAccess(method: string, path: string): RequiredAccess | null {
  const segment = /^\/v1\/([^/?]+)/.exec(path)?.[1];
  if (!segment || !Object.hasOwn(API_RESOURCES, segment)) return null;
  const resource = segment as ApiResource;
  const permissions = API_RESOURCES[resource].permissions as readonly Permission[];
  return { resource, permission: isSafeMethod(method) ? permissions[0]! : permissions[permissions.length - 1]! };
}

/**
 * Whether a key of these restrictions may send this request, by access alone (the allowlist aside),
 * for the seed's demo traffic: the TypeScript mirror of the admission statement's `scope_allowed`
 * (db/queries/admission-statement.ts), which is what admits requests. tests/admission-mirrors.test.ts holds the
 * two together on every operation of the document, for every access and permission.
 */
export function accessCovers(access: KeyAccess, scopes: KeyScopes, method: string, path: string): boolean {
  const need = requiredAccess(method, path);
  if (access === "full") return true;
  if (access === "read_only") return isSafeMethod(method);
  return !need || permissionRank(need.resource, scopes[need.resource]) >= permissionRank(need.resource, need.permission);
}

/** "write invoices", "generate PDF": the permission a refusal names. */
export function describeNeed(need: RequiredAccess): string {
  return `${need.permission} ${API_RESOURCES[need.resource].noun}`;
}

/**
 * One line per resource a key can reach, for the key page: "Invoices: read and write". A mirror of
 * the admission statement's `scope_allowed` too: tests/admission-mirrors.test.ts checks that the
 * statement admits exactly the permissions each line names.
 */
export function describeScopes(access: KeyAccess, scopes: KeyScopes): { resource: ApiResource; label: string; can: string }[] {
  return API_RESOURCE_NAMES.map((resource) => {
    const { label, permissions } = API_RESOURCES[resource];
    const held: readonly Permission[] =
      access === "full"
        ? permissions
        : access === "read_only"
          ? permissions[0] === "read"
            ? ["read"]
            : []
          : permissions.slice(0, permissionRank(resource, scopes[resource]));
    return { resource, label, can: held.length === 0 ? "No access" : held.map((permission) => PERMISSION_LABELS[permission]).join(" and ") };
  });
}

/** "invoices: write, analytics: read": a restricted key's permissions in one line, for the history and its CSV. */
export function scopesLine(scopes: KeyScopes): string {
  return API_RESOURCE_NAMES.filter((resource) => scopes[resource])
    .map((resource) => `${resource}: ${scopes[resource]}`)
    .join(", ");
}

/**
 * A key's restrictions as the activity history records them, only the fields that differ between
 * `before` and `after` (all of them for a new key): plain values, the allowlist null when empty.
 */
export function restrictionChanges(
  before: KeyRestrictions | null,
  after: KeyRestrictions,
): { before: Record<string, string | null>; after: Record<string, string | null> } {
  const values = (r: KeyRestrictions) => ({
    access: r.access,
    scopes: r.access === "restricted" ? scopesLine(r.scopes) : null,
    ipAllowlist: r.ipAllowlist.length > 0 ? r.ipAllowlist.join(", ") : null,
  });
  const now = values(after);
  const then = before ? values(before) : null;
  const fields = (Object.keys(now) as (keyof typeof now)[]).filter((field) => !then || then[field] !== now[field]);
  return {
    before: Object.fromEntries(fields.map((field) => [field, then ? then[field] : null])),
    after: Object.fromEntries(fields.map((field) => [field, now[field]])),
  };
}
