import { z } from "@hono/zod-openapi";
import { objectId } from "./common";

export const PdfRequest = z
  .strictObject({ invoice: objectId("in_9xK3mB6nV1cZ8aS2dF5g").openapi({ description: "The invoice to render, in any status." }) })
  .openapi("PdfRequest");

export const PdfDocument = z.string().openapi({ type: "string", format: "binary", description: "The invoice as a PDF document." });
