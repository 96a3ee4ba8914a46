import type { Role } from "@/core/enums";
import type { MemberDto } from "@/db/queries/members";

/** A change to a membership the viewer has chosen, waiting for their confirmation. */
export type MemberChange =
  | { kind: "remove"; member: MemberDto }
  | { kind: "leave"; member: MemberDto }
  | { kind: "transfer"; member: MemberDto }
  | { kind: "change-role"; member: MemberDto; role: Role };

/** An organization keeps an owner, so its last one can neither change role nor leave. */
export const LAST_OWNER_HINT = "You are the only owner: transfer ownership first.";
