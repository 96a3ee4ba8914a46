import { Core, type ClientOptions } from "./core.js";
import { AnalyticsResource, Customers, Invoices, Pdf, Products, Usage } from "./resources.js";

/**
 * The Invoicing API's client: one method per operation of the document, grouped by resource
 * (docs/features/sdk.md).
 *
 *   const invoicing = new Invoicing({ apiKey: process.env.INVOICING_API_KEY });
 *   for await (const customer of invoicing.customers.list({ limit: 100 })) console.log(customer.name);
 */
export class Invoicing {
  readonly customers: Customers;
  readonly products: Products;
  readonly invoices: Invoices;
  readonly analytics: AnalyticsResource;
  readonly pdf: Pdf;
  readonly usage: Usage;
  /** The typed openapi-fetch client underneath, for what the methods do not cover (same retries and headers). */
  readonly http: Core["http"];

  constructor(options: ClientOptions = {}) {
    const core = new Core(options);
    this.http = core.http;
    this.customers = new Customers(core);
    this.products = new Products(core);
    this.invoices = new Invoices(core);
    this.analytics = new AnalyticsResource(core);
    this.pdf = new Pdf(core);
    this.usage = new Usage(core);
  }
}
