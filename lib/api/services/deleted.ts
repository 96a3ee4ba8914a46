import type { Books } from "@/core/enums";

/** What a DELETE answers (schemas/common.ts deletedOf): the object's id and kind, and its books' mode. */
export function deletedObject<Kind extends string>(books: Books, object: Kind, id: string) {
  return { id, object, livemode: books.mode === "live", deleted: true as const };
}
