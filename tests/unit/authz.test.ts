import { describe, expect, it } from "vitest";
import { can, deniedMessage, grantableRoles, holdersCan, holdersOf, mayManageRole, onlyHoldersCan, ROLES, type Permission } from "@/lib/authz";

// The role table, row by row: owner, admin, member, guest.
const SPEC_TABLE: [Permission, boolean[]][] = [
  ["keys.view", [true, true, true, true]],
  ["audit.view", [true, true, true, false]],
  ["usage.view", [true, true, true, false]],
  ["requests.inspect", [true, true, true, false]],
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

describe("who may grant which role", () => {
  it("lets owners grant every role, admins members and guests, and nobody else any", () => {
    expect(grantableRoles("owner")).toEqual(["owner", "admin", "member", "guest"]);
    expect(grantableRoles("admin")).toEqual(["member", "guest"]);
    expect(grantableRoles("member")).toEqual([]);
    expect(grantableRoles("guest")).toEqual([]);
    expect(mayManageRole("admin", "admin")).toBe(false);
    expect(mayManageRole("admin", "guest")).toBe(true);
  });
});

describe("what pages and refusals say about roles", () => {
  it("names the roles the table gives a permission", () => {
    expect(holdersOf("keys.revoke")).toBe("owners");
    expect(holdersOf("keys.create")).toBe("owners and admins");
    expect(holdersOf("alerts.view")).toBe("owners, admins and members");
    expect(onlyHoldersCan("keys.policy", "change the key policy")).toBe("Only owners can change the key policy.");
    expect(holdersCan("members.manage", "invite people to this organization")).toBe("Owners and admins can invite people to this organization.");
  });

  it.each(SPEC_TABLE.filter(([, cells]) => cells.includes(false)))("refuses %s naming who may, or the one role that may not", (permission, cells) => {
    const holders = ROLES.filter((_, i) => cells[i]);
    const message = deniedMessage(permission);
    if (holders.length === ROLES.length - 1) expect(message).toMatch(/^Guests cannot /);
    // Refused to more than guests, a permission has one or two holders.
    else expect(message).toMatch(new RegExp(`^Only ${holders.map((role) => `${role}s`).join(" and ")} can `));
  });
});
