import { describe, expect, it } from "vitest";
import { fieldChanges } from "./activity";

const line = (before: Parameters<typeof fieldChanges>[0], after: Parameters<typeof fieldChanges>[1]) =>
  fieldChanges(before, after).map((change) => [change.label, change.before, change.after]);

describe("a history entry's fields", () => {
  it("describes the permissions of a full-access key as Full access and of a read-only key as Read only", () => {
    expect(line(null, { access: "full", scopes: null })).toContainEqual(["Permissions", null, "Full access"]);
    expect(line(null, { access: "read_only", scopes: null })).toContainEqual(["Permissions", null, "Read only"]);
    expect(line({ access: "restricted", scopes: "invoices: read" }, { access: "full", scopes: null })).toContainEqual([
      "Permissions",
      "invoices: read",
      "Full access",
    ]);
  });

  it("shows a revoke's reason before its note, whatever order the stored JSON has", () => {
    // jsonb keeps keys shortest first: "note" comes back before "reason".
    expect(line({ status: "active" }, { note: "Moved to\nthe new runner", reason: "other", status: "revoked" }).map(([label]) => label)).toEqual([
      "Status",
      "Reason",
      "Note",
    ]);
  });
});
