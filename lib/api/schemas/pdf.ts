import { z } from "@hono/zod-openapi";
import { objectId } from "./common";

export const PdfRequest = z
  .strictObject({ invoice: objectId("in_9xK3mB6nV1cZ8aS2dF5g").openapi({ description: "The invoice to render, in any status." }) })
  .openapi("PdfRequest");

// An invoice has at most 250 lines of bounded text: its PDF stays far below this bound.
export const PdfDocument = z
  .string()
  .openapi({ type: "string", format: "binary", maxLength: 10 * 1024 * 1024, description: "The invoice as a PDF document (at most 10 MiB)." });
