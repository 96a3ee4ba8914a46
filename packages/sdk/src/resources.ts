import { ApiPromise, PagePromise, type Page } from "./api-promise.js";
import { settle, type Core, type RequestOptions } from "./core.js";
import type { components, operations } from "./generated/openapi.js";

type Schemas = components["schemas"];
type Query<Operation extends keyof operations> = NonNullable<operations[Operation]["parameters"]["query"]>;

export type Customer = Schemas["Customer"];
export type CustomerCreate = Schemas["CustomerCreate"];
export type CustomerUpdate = Schemas["CustomerUpdate"];
export type DeletedCustomer = Schemas["DeletedCustomer"];
export type Product = Schemas["Product"];
export type ProductCreate = Schemas["ProductCreate"];
export type ProductUpdate = Schemas["ProductUpdate"];
export type Invoice = Schemas["Invoice"];
export type InvoiceCreate = Schemas["InvoiceCreate"];
export type InvoiceUpdate = Schemas["InvoiceUpdate"];
export type DeletedInvoice = Schemas["DeletedInvoice"];
export type Analytics = Schemas["Analytics"];
export type UsageRow = Schemas["UsageRow"];
export type CustomerListParams = Query<"listCustomers">;
export type ProductListParams = Query<"listProducts">;
export type InvoiceListParams = Query<"listInvoices">;
export type AnalyticsParams = Query<"getAnalytics">;
export type UsageParams = Query<"listUsage">;

/** A list call that pages on with `starting_after` (every list of the API takes it). */
function paged<Params extends { starting_after?: string }, Item>(
  params: Params,
  send: (params: Params) => Promise<{ data: Page<Item>; response: Response }>,
): PagePromise<Item> {
  return new PagePromise(send(params), (cursor) => paged({ ...params, starting_after: cursor }, send));
}

abstract class Resource {
  constructor(protected readonly core: Core) {}
}

/** The people and companies you bill. */
export class Customers extends Resource {
  list(params: CustomerListParams = {}, options?: RequestOptions): PagePromise<Customer> {
    return paged(params, (query) => settle(this.core.http.GET("/v1/customers", { params: { query }, ...this.core.init(options) })));
  }
  create(body: CustomerCreate, options?: RequestOptions): ApiPromise<Customer> {
    return this.core.call(this.core.http.POST("/v1/customers", { body, ...this.core.init(options) }));
  }
  retrieve(id: string, options?: RequestOptions): ApiPromise<Customer> {
    return this.core.call(this.core.http.GET("/v1/customers/{id}", { params: { path: { id } }, ...this.core.init(options) }));
  }
  update(id: string, body: CustomerUpdate, options?: RequestOptions): ApiPromise<Customer> {
    return this.core.call(this.core.http.PATCH("/v1/customers/{id}", { params: { path: { id } }, body, ...this.core.init(options) }));
  }
  delete(id: string, options?: RequestOptions): ApiPromise<DeletedCustomer> {
    return this.core.call(this.core.http.DELETE("/v1/customers/{id}", { params: { path: { id } }, ...this.core.init(options) }));
  }
}

/** Your catalog: prices, tax rates and stock. */
export class Products extends Resource {
  list(params: ProductListParams = {}, options?: RequestOptions): PagePromise<Product> {
    return paged(params, (query) => settle(this.core.http.GET("/v1/products", { params: { query }, ...this.core.init(options) })));
  }
  create(body: ProductCreate, options?: RequestOptions): ApiPromise<Product> {
    return this.core.call(this.core.http.POST("/v1/products", { body, ...this.core.init(options) }));
  }
  retrieve(id: string, options?: RequestOptions): ApiPromise<Product> {
    return this.core.call(this.core.http.GET("/v1/products/{id}", { params: { path: { id } }, ...this.core.init(options) }));
  }
  update(id: string, body: ProductUpdate, options?: RequestOptions): ApiPromise<Product> {
    return this.core.call(this.core.http.PATCH("/v1/products/{id}", { params: { path: { id } }, body, ...this.core.init(options) }));
  }
  archive(id: string, options?: RequestOptions): ApiPromise<Product> {
    return this.core.call(this.core.http.POST("/v1/products/{id}/archive", { params: { path: { id } }, ...this.core.init(options) }));
  }
}

/** Drafts, finalized invoices, payments and voids. */
export class Invoices extends Resource {
  list(params: InvoiceListParams = {}, options?: RequestOptions): PagePromise<Invoice> {
    return paged(params, (query) => settle(this.core.http.GET("/v1/invoices", { params: { query }, ...this.core.init(options) })));
  }
  create(body: InvoiceCreate, options?: RequestOptions): ApiPromise<Invoice> {
    return this.core.call(this.core.http.POST("/v1/invoices", { body, ...this.core.init(options) }));
  }
  retrieve(id: string, options?: RequestOptions): ApiPromise<Invoice> {
    return this.core.call(this.core.http.GET("/v1/invoices/{id}", { params: { path: { id } }, ...this.core.init(options) }));
  }
  update(id: string, body: InvoiceUpdate, options?: RequestOptions): ApiPromise<Invoice> {
    return this.core.call(this.core.http.PATCH("/v1/invoices/{id}", { params: { path: { id } }, body, ...this.core.init(options) }));
  }
  delete(id: string, options?: RequestOptions): ApiPromise<DeletedInvoice> {
    return this.core.call(this.core.http.DELETE("/v1/invoices/{id}", { params: { path: { id } }, ...this.core.init(options) }));
  }
  finalize(id: string, options?: RequestOptions): ApiPromise<Invoice> {
    return this.core.call(this.core.http.POST("/v1/invoices/{id}/finalize", { params: { path: { id } }, ...this.core.init(options) }));
  }
  pay(id: string, options?: RequestOptions): ApiPromise<Invoice> {
    return this.core.call(this.core.http.POST("/v1/invoices/{id}/pay", { params: { path: { id } }, ...this.core.init(options) }));
  }
  void(id: string, options?: RequestOptions): ApiPromise<Invoice> {
    return this.core.call(this.core.http.POST("/v1/invoices/{id}/void", { params: { path: { id } }, ...this.core.init(options) }));
  }
}

/** Revenue, outstanding and overdue amounts, per currency. */
export class AnalyticsResource extends Resource {
  retrieve(params: AnalyticsParams = {}, options?: RequestOptions): ApiPromise<Analytics> {
    return this.core.call(this.core.http.GET("/v1/analytics", { params: { query: params }, ...this.core.init(options) }));
  }
}

/** Invoices as PDF documents. */
export class Pdf extends Resource {
  /** The invoice's PDF, as bytes. */
  generate(invoice: string, options?: RequestOptions): ApiPromise<Uint8Array> {
    const sent = this.core.http.POST("/v1/pdf/generate", { body: { invoice }, parseAs: "arrayBuffer", ...this.core.init(options) });
    return new ApiPromise(settle(sent).then(({ data, response }) => ({ data: new Uint8Array(data as unknown as ArrayBuffer), response })));
  }
}

/** Your organization's API usage, by bucket, key, endpoint and status. */
export class Usage extends Resource {
  list(params: UsageParams, options?: RequestOptions): PagePromise<UsageRow> {
    return paged(params, (query) => settle(this.core.http.GET("/v1/usage", { params: { query }, ...this.core.init(options) })));
  }
}
