import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import type { ApiEnv } from "../env";
import { IdempotencyHeaders } from "../schemas/common";
import { PdfDocument, PdfRequest } from "../schemas/pdf";
import { ADMITTED, jsonBody, refusals } from "../schemas/responses";
import { invoicePdf } from "../services/pdf";

const generate = createRoute({
  method: "post",
  path: "/v1/pdf/generate",
  tags: ["PDF"],
  operationId: "generatePdf",
  summary: "Render an invoice as PDF",
  description:
    "An A4 PDF of the invoice with your organization's name, the customer, number, dates, lines, totals and status. Sent as an attachment named after the number (INV-000123.pdf), or draft-<id>.pdf for drafts.",
  request: { body: jsonBody(PdfRequest), headers: IdempotencyHeaders },
  responses: {
    200: {
      description: "The PDF document.",
      headers: {
        ...ADMITTED,
        "Content-Disposition": { description: 'attachment; filename="INV-000123.pdf"', required: true, schema: { type: "string", maxLength: 128 } },
      },
      content: { "application/pdf": { schema: PdfDocument } },
    },
    ...refusals(["not_found"], { body: true, idempotent: true }),
  },
});

export function pdfRoutes(app: OpenAPIHono<ApiEnv>): void {
  app.openapi(generate, async (c) => {
    const { bytes, filename } = await invoicePdf(c.get("caller"), c.req.valid("json").invoice);
    return c.body(bytes as Uint8Array<ArrayBuffer>, 200, {
      "Content-Type": "application/pdf",
      "Content-Disposition": `attachment; filename="${filename}"`,
    });
  });
}
