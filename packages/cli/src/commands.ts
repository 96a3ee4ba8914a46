import type { Invoicing, Page, PagePromise } from "@invoicing/sdk";
import { UsageError } from "./arguments.js";

/** What a command asks of the API, from the words after its resource and action. */
export interface CommandInput {
  id: string | undefined;
  params: Record<string, unknown>;
  all: boolean;
}

/** What a command gives back: a page or every item of a list, one object, or a file's bytes. */
export type CommandResult = { kind: "list"; page: Page<unknown> } | { kind: "object"; value: unknown } | { kind: "bytes"; bytes: Uint8Array };

interface Command {
  summary: string;
  /** The id this command acts on, as its usage line names it. */
  id?: string;
  run: (invoicing: Invoicing, input: CommandInput) => Promise<CommandResult>;
}

// The SDK's types come from the API's document; the command line passes what it was given and the API validates it.
type Untyped = never;

function required(input: CommandInput, name: string): string {
  if (!input.id) throw new UsageError(`Name the ${name}: its id comes after the action.`);
  return input.id;
}

async function list<Item>(call: PagePromise<Item>, all: boolean): Promise<CommandResult> {
  if (!all) return { kind: "list", page: await call };
  const data: Item[] = [];
  for await (const item of call) data.push(item);
  return { kind: "list", page: { object: "list", data, has_more: false, next_cursor: null } };
}

const object = async (value: PromiseLike<unknown>): Promise<CommandResult> => ({ kind: "object", value: await value });

/** What the SDK's customers, products and invoices have alike. */
interface Catalogue {
  list(params: Untyped): PagePromise<unknown>;
  retrieve(id: string): PromiseLike<unknown>;
  create(body: Untyped): PromiseLike<unknown>;
  update(id: string, body: Untyped): PromiseLike<unknown>;
}

/** list, get, create and update of one resource, whose objects are called `noun` with ids like `id`. */
function catalogue(resource: (api: Invoicing) => Catalogue, noun: string, id: string, summaries: { list: string; create: string }): Record<string, Command> {
  return {
    list: { summary: summaries.list, run: (api, input) => list(resource(api).list(input.params as Untyped), input.all) },
    get: { summary: `Show a ${noun}`, id, run: (api, input) => object(resource(api).retrieve(required(input, noun))) },
    create: { summary: summaries.create, run: (api, input) => object(resource(api).create(input.params as Untyped)) },
    update: {
      summary: `Change a ${noun}'s fields`,
      id,
      run: (api, input) => object(resource(api).update(required(input, noun), input.params as Untyped)),
    },
  };
}

/** An action on one object by its id, with no parameters. */
function onOne(summary: string, noun: string, id: string, call: (api: Invoicing, id: string) => PromiseLike<unknown>): Command {
  return { summary, id, run: (api, input) => object(call(api, required(input, noun))) };
}

/** Every command, by resource and action (docs/features/cli.md#commands). */
export const COMMANDS: Record<string, Record<string, Command>> = {
  customers: {
    ...catalogue((api) => api.customers, "customer", "cus_…", {
      list: "List customers, newest first (limit=, search=, --all)",
      create: "Create a customer (name=, currency=, email=, …)",
    }),
    delete: onOne("Delete a customer with no open invoices", "customer", "cus_…", (api, id) => api.customers.delete(id)),
  },
  products: {
    ...catalogue((api) => api.products, "product", "prod_…", {
      list: "List products, newest first (limit=, active:=, --all)",
      create: "Create a product (name=, unit_amount:=, currency=, tax_rate:=, …)",
    }),
    archive: onOne("Archive a product", "product", "prod_…", (api, id) => api.products.archive(id)),
  },
  invoices: {
    ...catalogue((api) => api.invoices, "invoice", "in_…", {
      list: "List invoices, newest first (status=, customer=, from=, to=, --all)",
      create: "Create a draft (customer=, lines[0].description=, lines[0].quantity:=, lines[0].unit_amount:=, …)",
    }),
    delete: onOne("Delete a draft", "invoice", "in_…", (api, id) => api.invoices.delete(id)),
    finalize: onOne("Finalize a draft: number it and open it", "invoice", "in_…", (api, id) => api.invoices.finalize(id)),
    pay: onOne("Mark an open invoice paid", "invoice", "in_…", (api, id) => api.invoices.pay(id)),
    void: onOne("Void an open invoice", "invoice", "in_…", (api, id) => api.invoices.void(id)),
    pdf: {
      summary: "The invoice as a PDF (--out file.pdf)",
      id: "in_…",
      run: async (api, input) => ({ kind: "bytes", bytes: await api.pdf.generate(required(input, "invoice")) }),
    },
  },
  analytics: {
    get: {
      summary: "Revenue, outstanding and overdue amounts per currency (from=, to=)",
      run: (api, input) => object(api.analytics.retrieve(input.params as Untyped)),
    },
  },
  usage: {
    list: {
      summary: "API usage by bucket (from=, to=, bucket=, group_by=, --all)",
      run: (api, input) => list(api.usage.list(input.params as Untyped), input.all),
    },
  },
};

/** The action a resource runs when none is named: analytics shows, usage lists. */
export const DEFAULT_ACTIONS: Record<string, string> = { analytics: "get", usage: "list" };
