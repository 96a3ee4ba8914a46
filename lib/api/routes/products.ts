import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import type { ApiEnv } from "../env";
import { IdempotencyHeaders } from "../schemas/common";
import { Product, ProductCreate, ProductList, ProductListQuery, ProductParams, ProductUpdate } from "../schemas/products";
import { jsonBody, ok, refusals } from "../schemas/responses";
import { archiveProduct, createProduct, getProduct, listProducts, updateProduct } from "../services/products";

const tags = ["Products"];

const list = createRoute({
  method: "get",
  path: "/v1/products",
  tags,
  operationId: "listProducts",
  summary: "List products",
  description: "Your catalog, newest first, a page at a time; `active` keeps only active or only archived products.",
  request: { query: ProductListQuery },
  responses: { 200: ok(ProductList, "A page of products."), ...refusals(["validation_failed", "not_found"]) },
});

const create = createRoute({
  method: "post",
  path: "/v1/products",
  tags,
  operationId: "createProduct",
  summary: "Create a product",
  description: "Omit `stock_quantity` (or send null) for products without stock, such as services.",
  request: { body: jsonBody(ProductCreate), headers: IdempotencyHeaders },
  responses: { 201: ok(Product, "The new product."), ...refusals(["sku_taken"], { body: true, idempotent: true }) },
});

const retrieve = createRoute({
  method: "get",
  path: "/v1/products/{id}",
  tags,
  operationId: "getProduct",
  summary: "Retrieve a product",
  request: { params: ProductParams },
  responses: { 200: ok(Product, "The product."), ...refusals(["validation_failed", "not_found"]) },
});

const update = createRoute({
  method: "patch",
  path: "/v1/products/{id}",
  tags,
  operationId: "updateProduct",
  summary: "Update a product",
  description: "Changes the fields sent, including the stock count and `active`. Invoices already written keep their lines.",
  request: { params: ProductParams, body: jsonBody(ProductUpdate) },
  responses: { 200: ok(Product, "The updated product."), ...refusals(["not_found", "sku_taken"], { body: true }) },
});

const archive = createRoute({
  method: "post",
  path: "/v1/products/{id}/archive",
  tags,
  operationId: "archiveProduct",
  summary: "Archive a product",
  description:
    "Products are never deleted, so the invoices that sell them stay whole: an archived product cannot be added to invoices and can be restored with `active: true`.",
  request: { params: ProductParams, headers: IdempotencyHeaders },
  responses: { 200: ok(Product, "The archived product."), ...refusals(["validation_failed", "not_found"], { idempotent: true }) },
});

export function productRoutes(app: OpenAPIHono<ApiEnv>): void {
  app.openapi(list, async (c) => c.json(await listProducts(c.get("caller"), c.req.valid("query")), 200));
  app.openapi(create, async (c) => c.json(await createProduct(c.get("caller"), c.req.valid("json")), 201));
  app.openapi(retrieve, async (c) => c.json(await getProduct(c.get("caller"), c.req.valid("param").id), 200));
  app.openapi(update, async (c) => c.json(await updateProduct(c.get("caller"), c.req.valid("param").id, c.req.valid("json")), 200));
  app.openapi(archive, async (c) => c.json(await archiveProduct(c.get("caller"), c.req.valid("param").id), 200));
}
