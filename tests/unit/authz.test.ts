import { describe, expect, it } from "vitest";
import { can, grantableRoles, mayManageRole, ROLES, type Permission } from "@/lib/authz";

// SPEC §1, row by row: owner, admin, member, guest.
const SPEC_TABLE: [Permission, boolean[]][] = [
  ["keys.view", [true, true, true, true]],
  ["audit.view", [true, true, true, false]],
  ["keys.create", [true, true, false, false]],
  ["keys.revoke", [true, false, false, false]],
  ["plan.manage", [true, false, false, false]],
  ["members.view", [true, true, true, false]],
  ["members.manage", [true, true, false, false]],
  ["members.manage_admins", [true, false, false, false]],
  ["members.leave", [true, true, true, true]],
];

describe("the permission table", () => {
  it.each(SPEC_TABLE.flatMap(([permission, cells]) => ROLES.map((role, i) => [permission, role, cells[i]!] as const)))(
    "%s for %s is %s",
    (permission, role, allowed) => {
      expect(can(role, permission)).toBe(allowed);
    },
  );
});

describe("who may grant which role (SPEC §1, §12)", () => {
  it("lets owners grant every role, admins members and guests, and nobody else any", () => {
    expect(grantableRoles("owner")).toEqual(["owner", "admin", "member", "guest"]);
    expect(grantableRoles("admin")).toEqual(["member", "guest"]);
    expect(grantableRoles("member")).toEqual([]);
    expect(grantableRoles("guest")).toEqual([]);
    expect(mayManageRole("admin", "admin")).toBe(false);
    expect(mayManageRole("admin", "guest")).toBe(true);
  });
});
