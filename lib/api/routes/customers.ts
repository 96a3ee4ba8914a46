import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import type { ApiEnv } from "../env";
import { IdempotencyHeaders } from "../schemas/common";
import { Customer, CustomerCreate, CustomerList, CustomerListQuery, CustomerParams, CustomerUpdate, DeletedCustomer } from "../schemas/customers";
import { jsonBody, ok, refusals } from "../schemas/responses";
import { createCustomer, deleteCustomer, getCustomer, listCustomers, updateCustomer } from "../services/customers";

const tags = ["Customers"];

const list = createRoute({
  method: "get",
  path: "/v1/customers",
  tags,
  operationId: "listCustomers",
  summary: "List customers",
  description: "Your customers, newest first, a page at a time. `search` finds a text in the name or email, ignoring case.",
  request: { query: CustomerListQuery },
  responses: { 200: ok(CustomerList, "A page of customers."), ...refusals(["validation_failed", "not_found"]) },
});

const create = createRoute({
  method: "post",
  path: "/v1/customers",
  tags,
  operationId: "createCustomer",
  summary: "Create a customer",
  request: { body: jsonBody(CustomerCreate), headers: IdempotencyHeaders },
  responses: { 201: ok(Customer, "The new customer."), ...refusals([], { body: true, idempotent: true }) },
});

const retrieve = createRoute({
  method: "get",
  path: "/v1/customers/{id}",
  tags,
  operationId: "getCustomer",
  summary: "Retrieve a customer",
  request: { params: CustomerParams },
  responses: { 200: ok(Customer, "The customer."), ...refusals(["validation_failed", "not_found"]) },
});

const update = createRoute({
  method: "patch",
  path: "/v1/customers/{id}",
  tags,
  operationId: "updateCustomer",
  summary: "Update a customer",
  description: "Changes the fields sent. Open, paid and void invoices keep the customer details they were finalized with; drafts follow the customer.",
  request: { params: CustomerParams, body: jsonBody(CustomerUpdate) },
  responses: { 200: ok(Customer, "The updated customer."), ...refusals(["not_found"], { body: true }) },
});

const remove = createRoute({
  method: "delete",
  path: "/v1/customers/{id}",
  tags,
  operationId: "deleteCustomer",
  summary: "Delete a customer",
  description:
    "Refused with `customer_has_open_invoices` while an invoice of the customer is open. The customer's drafts are deleted with it; its paid and void invoices stay and keep their customer details.",
  request: { params: CustomerParams },
  responses: { 200: ok(DeletedCustomer, "The customer was deleted."), ...refusals(["validation_failed", "not_found", "customer_has_open_invoices"]) },
});

export function customerRoutes(app: OpenAPIHono<ApiEnv>): void {
  app.openapi(list, async (c) => c.json(await listCustomers(c.get("caller"), c.req.valid("query")), 200));
  app.openapi(create, async (c) => c.json(await createCustomer(c.get("caller"), c.req.valid("json")), 201));
  app.openapi(retrieve, async (c) => c.json(await getCustomer(c.get("caller"), c.req.valid("param").id), 200));
  app.openapi(update, async (c) => c.json(await updateCustomer(c.get("caller"), c.req.valid("param").id, c.req.valid("json")), 200));
  app.openapi(remove, async (c) => c.json(await deleteCustomer(c.get("caller"), c.req.valid("param").id), 200));
}
