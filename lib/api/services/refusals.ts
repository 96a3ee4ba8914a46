import { ApiError } from "../errors";

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
