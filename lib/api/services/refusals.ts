import { ApiError } from "../errors";

/** The 409 codes of the API: each names the rule that refused the request. */
export const CONFLICTS = {
  invoice_not_draft: "The invoice is no longer a draft: only drafts can be edited, finalized or deleted.",
  invoice_not_open: "The invoice is not open: only open invoices can be marked paid or voided.",
  insufficient_stock: "Finalizing would take a stocked product below zero units; nothing was changed.",
  customer_has_open_invoices: "The customer has open invoices: mark them paid or void them first.",
  product_archived: "The product is archived and cannot be added to invoices.",
  sku_taken: "Another product of the organization already has this SKU.",
} as const;

export type ConflictCode = keyof typeof CONFLICTS;

export function conflict(code: ConflictCode, message: string): ApiError {
  return new ApiError(409, code, message);
}

const NOUNS = { cus: "customer", prod: "product", in: "invoice" } as const;

/** Unknown ids and ids of another organization get the same answer: it does not exist for you. */
export function notFound(id: string, path?: string): ApiError {
  const noun = NOUNS[id.split("_")[0] as keyof typeof NOUNS] ?? "object";
  const message = `No ${noun} with id ${id}.`;
  return ApiError.of("not_found", message, path ? { details: [{ path, message }] } : {});
}

/** A body that passed its schema but contradicts the data it refers to. */
export function invalid(path: string, message: string): ApiError {
  return ApiError.of("validation_failed", "The request is not valid: see details.", { details: [{ path, message }] });
}
