import { describe, expect, it } from "vitest";
import { can, ROLES, type Permission } from "@/lib/authz";

// SPEC §1, row by row: owner, admin, member, guest.
const SPEC_TABLE: [Permission, boolean[]][] = [
  ["keys.view", [true, true, true, true]],
  ["audit.view", [true, true, true, false]],
  ["keys.create", [true, true, false, false]],
  ["keys.revoke", [true, false, false, false]],
  ["plan.manage", [true, false, false, false]],
];

describe("the permission table", () => {
  it.each(SPEC_TABLE.flatMap(([permission, cells]) => ROLES.map((role, i) => [permission, role, cells[i]!] as const)))(
    "%s for %s is %s",
    (permission, role, allowed) => {
      expect(can(role, permission)).toBe(allowed);
    },
  );
});
