import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import type { ApiEnv } from "../env";
import { IdempotencyHeaders } from "../schemas/common";
import { DeletedInvoice, Invoice, InvoiceCreate, InvoiceList, InvoiceListQuery, InvoiceParams, InvoiceUpdate } from "../schemas/invoices";
import type { ApiErrorCode } from "../errors";
import { jsonBody, ok, refusals } from "../schemas/responses";
import { finalizeInvoice, payInvoice, voidInvoice } from "../services/invoice-lifecycle";
import { createInvoice, deleteInvoice, getInvoice, listInvoices, updateInvoice } from "../services/invoices";

const tags = ["Invoices"];

const list = createRoute({
  method: "get",
  path: "/v1/invoices",
  tags,
  operationId: "listInvoices",
  summary: "List invoices",
  description:
    "Newest first, a page at a time. Filters combine: `status` (with `overdue` for open invoices past their due date), `customer`, and `from`/`to` on the invoice's date (its issue date, or for a draft without one the day it was created, UTC).",
  request: { query: InvoiceListQuery },
  responses: { 200: ok(InvoiceList, "A page of invoices."), ...refusals(["validation_failed", "not_found"]) },
});

const create = createRoute({
  method: "post",
  path: "/v1/invoices",
  tags,
  operationId: "createInvoice",
  summary: "Create a draft invoice",
  description:
    "Creates a draft. Each line is a catalog product (its name, price and tax rate are defaults the line may override) or free text. The server computes every amount; see the rounding rule in the API description.",
  request: { body: jsonBody(InvoiceCreate), headers: IdempotencyHeaders },
  responses: { 201: ok(Invoice, "The new draft."), ...refusals(["not_found", "product_archived"], { body: true, idempotent: true }) },
});

const retrieve = createRoute({
  method: "get",
  path: "/v1/invoices/{id}",
  tags,
  operationId: "getInvoice",
  summary: "Retrieve an invoice",
  request: { params: InvoiceParams },
  responses: { 200: ok(Invoice, "The invoice."), ...refusals(["validation_failed", "not_found"]) },
});

const update = createRoute({
  method: "patch",
  path: "/v1/invoices/{id}",
  tags,
  operationId: "updateInvoice",
  summary: "Update a draft",
  description: "Drafts only (`invoice_not_draft` otherwise). `lines`, when sent, replace every line; amounts are computed again.",
  request: { params: InvoiceParams, body: jsonBody(InvoiceUpdate) },
  responses: { 200: ok(Invoice, "The updated draft."), ...refusals(["not_found", "invoice_not_draft", "product_archived"], { body: true }) },
});

const remove = createRoute({
  method: "delete",
  path: "/v1/invoices/{id}",
  tags,
  operationId: "deleteInvoice",
  summary: "Delete a draft",
  description: "Drafts only; an open invoice is voided instead, so its number stays accounted for.",
  request: { params: InvoiceParams },
  responses: { 200: ok(DeletedInvoice, "The draft was deleted."), ...refusals(["validation_failed", "not_found", "invoice_not_draft"]) },
});

function transition(action: string, operationId: string, summary: string, description: string, codes: ApiErrorCode[]) {
  return createRoute({
    method: "post",
    path: `/v1/invoices/{id}/${action}`,
    tags,
    operationId,
    summary,
    description,
    request: { params: InvoiceParams, headers: IdempotencyHeaders },
    responses: { 200: ok(Invoice, "The invoice in its new status."), ...refusals(["validation_failed", "not_found", ...codes], { idempotent: true }) },
  });
}

const finalize = transition(
  "finalize",
  "finalizeInvoice",
  "Finalize a draft",
  "draft → open, all or nothing: gives the organization's next number (INV-000123, no gaps, no duplicates), sets the issue date (today, UTC, unless set) and the due date (30 days later unless set), freezes the customer details, and takes the units of stocked products out of stock. Refused with `insufficient_stock` when a product would go below zero, and with `validation_failed` when the draft's due date falls before the issue date it would get.",
  ["invoice_not_draft", "insufficient_stock"],
);
const pay = transition("pay", "payInvoice", "Mark an invoice paid", "open → paid. Revenue in /v1/analytics counts it on the day of this call (UTC).", [
  "invoice_not_open",
]);
const voidIt = transition("void", "voidInvoice", "Void an invoice", "open → void: the invoice keeps its number, and the units it sold go back into stock.", [
  "invoice_not_open",
]);

export function invoiceRoutes(app: OpenAPIHono<ApiEnv>): void {
  app.openapi(list, async (c) => c.json(await listInvoices(c.get("caller"), c.req.valid("query")), 200));
  app.openapi(create, async (c) => c.json(await createInvoice(c.get("caller"), c.req.valid("json")), 201));
  app.openapi(retrieve, async (c) => c.json(await getInvoice(c.get("caller"), c.req.valid("param").id), 200));
  app.openapi(update, async (c) => c.json(await updateInvoice(c.get("caller"), c.req.valid("param").id, c.req.valid("json")), 200));
  app.openapi(remove, async (c) => c.json(await deleteInvoice(c.get("caller"), c.req.valid("param").id), 200));
  app.openapi(finalize, async (c) => c.json(await finalizeInvoice(c.get("caller"), c.req.valid("param").id), 200));
  app.openapi(pay, async (c) => c.json(await payInvoice(c.get("caller"), c.req.valid("param").id), 200));
  app.openapi(voidIt, async (c) => c.json(await voidInvoice(c.get("caller"), c.req.valid("param").id), 200));
}
