import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  date,
  foreignKey,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { createdAt, mode } from "./columns";
import { tenant } from "./accounts";

// Every table is keyed by (org_id, mode, id) and references others by (org_id, mode, …): the
// database itself refuses a row that points into another organization or the other mode
// (docs/features/test-mode.md), and the schema distributes by org_id.

const updatedAt = () => timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow();
/** Money: integer minor units of the row's ISO 4217 currency, never beyond Number.MAX_SAFE_INTEGER. */
const money = (name: string) => bigint(name, { mode: "number" }).notNull();

export interface PostalAddress {
  line1?: string | null;
  line2?: string | null;
  city?: string | null;
  state?: string | null;
  postal_code?: string | null;
  country?: string | null;
}

export interface CustomerDetails {
  name: string;
  email: string | null;
  phone: string | null;
  address: PostalAddress | null;
  tax_id: string | null;
}

export const customers = pgTable(
  "customers",
  {
    orgId: tenant(),
    mode: mode(),
    id: text("id").notNull(),
    name: text("name").notNull(),
    email: text("email"),
    phone: text("phone"),
    address: jsonb("address").$type<PostalAddress>(),
    taxId: text("tax_id"),
    currency: text("currency"),
    metadata: jsonb("metadata").$type<Record<string, string>>().notNull().default({}),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    /** Deleted customers stay for the invoices that name them; the API no longer finds them. */
    deletedAt: timestamp("deleted_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.mode, t.id] }), index("customers_org_mode_created_idx").on(t.orgId, t.mode, t.createdAt.desc(), t.id.desc())],
);

export const products = pgTable(
  "products",
  {
    orgId: tenant(),
    mode: mode(),
    id: text("id").notNull(),
    name: text("name").notNull(),
    description: text("description"),
    sku: text("sku"),
    unitAmount: money("unit_amount"),
    currency: text("currency").notNull(),
    /** Percent × 10,000 (8.875 % is 88,750), so rates with four decimals stay exact. */
    taxRatePpm: integer("tax_rate_ppm").notNull().default(0),
    active: boolean("active").notNull().default(true),
    /** Null: stock not tracked. */
    stockQuantity: integer("stock_quantity"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.orgId, t.mode, t.id] }),
    uniqueIndex("products_org_mode_sku_idx").on(t.orgId, t.mode, t.sku),
    index("products_org_mode_created_idx").on(t.orgId, t.mode, t.createdAt.desc(), t.id.desc()),
    check("products_stock_not_negative", sql`${t.stockQuantity} >= 0`),
  ],
);

export const invoiceStatusEnum = pgEnum("invoice_status", ["draft", "open", "paid", "void"]);

export const invoices = pgTable(
  "invoices",
  {
    orgId: tenant(),
    mode: mode(),
    id: text("id").notNull(),
    customerId: text("customer_id").notNull(),
    /** "INV-000123", assigned at finalization from invoice_counters: each mode has its own sequence. */
    number: text("number"),
    status: invoiceStatusEnum("status").notNull().default("draft"),
    currency: text("currency").notNull(),
    /** The customer as billed, frozen at finalization; drafts show the customer as it is. */
    customerDetails: jsonb("customer_details").$type<CustomerDetails>(),
    notes: text("notes"),
    issueDate: date("issue_date", { mode: "string" }),
    dueDate: date("due_date", { mode: "string" }),
    subtotal: money("subtotal"),
    tax: money("tax"),
    total: money("total"),
    finalizedAt: timestamp("finalized_at", { withTimezone: true, mode: "date" }),
    paidAt: timestamp("paid_at", { withTimezone: true, mode: "date" }),
    voidedAt: timestamp("voided_at", { withTimezone: true, mode: "date" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.orgId, t.mode, t.id] }),
    foreignKey({ columns: [t.orgId, t.mode, t.customerId], foreignColumns: [customers.orgId, customers.mode, customers.id] }),
    uniqueIndex("invoices_org_mode_number_idx").on(t.orgId, t.mode, t.number),
    index("invoices_org_mode_created_idx").on(t.orgId, t.mode, t.createdAt.desc(), t.id.desc()),
    index("invoices_org_mode_customer_status_idx").on(t.orgId, t.mode, t.customerId, t.status),
    index("invoices_org_mode_status_due_idx").on(t.orgId, t.mode, t.status, t.dueDate),
    index("invoices_org_mode_paid_idx").on(t.orgId, t.mode, t.paidAt),
  ],
);

export const invoiceLineItems = pgTable(
  "invoice_line_items",
  {
    orgId: tenant(),
    mode: mode(),
    id: text("id").notNull(),
    invoiceId: text("invoice_id").notNull(),
    position: integer("position").notNull(),
    productId: text("product_id"),
    description: text("description").notNull(),
    quantity: integer("quantity").notNull(),
    unitAmount: money("unit_amount"),
    taxRatePpm: integer("tax_rate_ppm").notNull(),
    amount: money("amount"),
    tax: money("tax"),
  },
  (t) => [
    primaryKey({ columns: [t.orgId, t.mode, t.id] }),
    foreignKey({ columns: [t.orgId, t.mode, t.invoiceId], foreignColumns: [invoices.orgId, invoices.mode, invoices.id] }).onDelete("cascade"),
    foreignKey({ columns: [t.orgId, t.mode, t.productId], foreignColumns: [products.orgId, products.mode, products.id] }),
    index("invoice_line_items_org_mode_invoice_idx").on(t.orgId, t.mode, t.invoiceId, t.position),
  ],
);

/** The last invoice number of each organization and mode; its row lock serializes finalizations. */
export const invoiceCounters = pgTable(
  "invoice_counters",
  {
    orgId: tenant(),
    mode: mode(),
    lastNumber: integer("last_number").notNull(),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.mode] })],
);

export type InvoiceStatus = (typeof invoiceStatusEnum.enumValues)[number];
