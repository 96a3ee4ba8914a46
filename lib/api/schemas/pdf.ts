import { z } from "@hono/zod-openapi";

export const PdfRequest = z
  .strictObject({ invoice: z.string().max(64).openapi({ description: "The invoice to render, in any status.", example: "in_9xK3mB6nV1cZ8aS2dF5g" }) })
  .openapi("PdfRequest");

export const PdfDocument = z.string().openapi({ type: "string", format: "binary", description: "The invoice as a PDF document." });
