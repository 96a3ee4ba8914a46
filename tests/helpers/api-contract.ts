import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { expect, it } from "vitest";
import { API_ERRORS, type ApiErrorCode } from "@/lib/api/errors";
import { startApiServer } from "./api-server";
import { createOrg, insertKey } from "./factories";

type Json = Record<string, unknown>;

/** One request of the suite and the response it got. */
export interface Exchange {
  method: string;
  path: string;
  requestBody: unknown;
  status: number;
  headers: Headers;
  body: Buffer;
}

const DOC_ID = "https://contract.test/openapi.json";

/** The gateway's refusals and route_not_found: what a path outside the API can answer. */
const OUTSIDE_THE_API: readonly string[] = [
  "api_key_missing",
  "api_key_invalid",
  "api_key_revoked",
  "api_key_expired",
  "ip_not_allowed",
  "plan_no_api_access",
  "api_key_scope_insufficient",
  "rate_limited",
  "monthly_quota_exceeded",
  "route_not_found",
];

function pointer(...segments: string[]): string {
  return segments.map((segment) => `/${encodeURIComponent(segment.replace(/~/g, "~0").replace(/\//g, "~1"))}`).join("");
}

/** Checks exchanges against an OpenAPI 3.1 document with its own JSON Schemas (ajv, draft 2020-12). */
export class OpenApiContract {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(private readonly doc: Json) {
    addFormats(this.ajv);
    this.ajv.addSchema({ ...doc, $id: DOC_ID });
  }

  private validator(path: string): ValidateFunction {
    let validate = this.compiled.get(path);
    if (!validate) {
      validate = this.ajv.compile({ $ref: `${DOC_ID}#${path}` });
      this.compiled.set(path, validate);
    }
    return validate;
  }

  private resolve(node: Json): Json {
    const ref = node.$ref as string | undefined;
    if (!ref) return node;
    return ref
      .slice(2)
      .split("/")
      .reduce<Json>((at, key) => at[key.replace(/~1/g, "/").replace(/~0/g, "~")] as Json, this.doc);
  }

  private template(pathname: string): string | undefined {
    return Object.keys(this.doc.paths as Json).find((template) => new RegExp(`^${template.replace(/\{[^}]+\}/g, "[^/]+")}$`).test(pathname));
  }

  private schemaErrors(path: string, value: unknown, what: string): string[] {
    const validate = this.validator(path);
    return validate(value) ? [] : [`${what}: ${this.ajv.errorsText(validate.errors)}`];
  }

  /** What the document gets wrong about this exchange; empty when it describes it. */
  problems(exchange: Exchange): string[] {
    const pathname = new URL(exchange.path, "http://x").pathname;
    const where = `${exchange.method} ${exchange.path} → ${exchange.status}`;
    const template = this.template(pathname);
    const method = exchange.method.toLowerCase();
    const operation = template ? (((this.doc.paths as Json)[template] as Json)[method] as Json | undefined) : undefined;
    if (!template || !operation) {
      // The description documents the answers for a path outside the API: the gateway's, then 404.
      const code = /"code":"([a-z_]+)"/.exec(exchange.body.toString("utf8"))?.[1];
      if (code && OUTSIDE_THE_API.includes(code) && API_ERRORS[code as ApiErrorCode].status === exchange.status) return [];
      return [`${where}: no such operation in the document`];
    }
    const responseRef = (operation.responses as Json)[String(exchange.status)] as Json | undefined;
    if (!responseRef) return [`${where}: status not documented`];
    const response = this.resolve(responseRef);
    const responsePath = responseRef.$ref ? (responseRef.$ref as string).slice(1) : pointer("paths", template, method, "responses", String(exchange.status));

    const problems: string[] = [];
    for (const [name, headerRef] of Object.entries((response.headers ?? {}) as Json)) {
      const header = this.resolve(headerRef as Json);
      const value = exchange.headers.get(name);
      if (value === null) {
        if (header.required) problems.push(`${where}: required header ${name} missing`);
      } else if ((header.schema as Json).type === "integer" && !/^\d+$/.test(value)) problems.push(`${where}: header ${name} is not an integer: ${value}`);
    }

    const mediaType = exchange.headers.get("content-type")?.split(";")[0]?.trim() ?? "";
    if (!(mediaType in ((response.content ?? {}) as Json))) return [...problems, `${where}: content type ${mediaType} not documented`];
    if (mediaType === "application/json") {
      const body: unknown = JSON.parse(exchange.body.toString("utf8"));
      problems.push(...this.schemaErrors(`${responsePath}${pointer("content", mediaType, "schema")}`, body, `${where}: body`));
    } else if (mediaType === "application/pdf" && exchange.body.subarray(0, 5).toString("latin1") !== "%PDF-") {
      problems.push(`${where}: not a PDF`);
    }

    if (exchange.status < 300 && exchange.requestBody !== undefined) {
      problems.push(
        ...this.schemaErrors(
          pointer("paths", template, method, "requestBody", "content", "application/json", "schema"),
          exchange.requestBody,
          `${where}: request`,
        ),
      );
    }
    return problems;
  }
}

/**
 * The real API on a local port, recording every exchange so that the file can end with
 * `itMatchesTheDocument(api)`: each response of the file checked against /v1/openapi.json.
 */
export function contractApi(options: Parameters<typeof startApiServer>[0] = {}) {
  const api = startApiServer(options);
  const pending: Promise<Exchange>[] = [];
  const request = async (path: string, init: RequestInit & { key?: string; json?: unknown } = {}) => {
    const response = await api.request(path, init);
    pending.push(
      response
        .clone()
        .arrayBuffer()
        .then((body) => ({
          method: init.method ?? "GET",
          path,
          requestBody: init.json,
          status: response.status,
          headers: response.headers,
          body: Buffer.from(body),
        })),
    );
    return response;
  };
  return { ...api, request, exchanges: () => Promise.all(pending) };
}

export async function servedContract(api: { url: (path: string) => string }): Promise<OpenApiContract> {
  return new OpenApiContract((await (await fetch(api.url("/v1/openapi.json"))).json()) as Json);
}

/** The file's last test: every response it received, described by the served document. */
export function itMatchesTheDocument(api: ContractApi, atLeast: number) {
  it("got only responses that the served OpenAPI document describes", async () => {
    const contract = await servedContract(api);
    const exchanges = await api.exchanges();
    expect(exchanges.length).toBeGreaterThanOrEqual(atLeast);
    expect(exchanges.flatMap((exchange) => contract.problems(exchange))).toEqual([]);
  });
}

export type ContractApi = ReturnType<typeof contractApi>;
type RequestOptions = Parameters<ContractApi["request"]>[1];

/**
 * A fresh organization with a key, and `call(path, init)` sending that key. Enterprise with a
 * rate limit a test file never reaches: trial and pro plans would run out of calls.
 */
export async function apiClient(api: ContractApi) {
  const org = await createOrg("enterprise", { rateLimitPerMinute: 100_000 });
  const { value: key } = await insertKey(org.id);
  return { org, key, call: (path: string, init: RequestOptions = {}) => api.request(path, { key, ...init }) };
}

export type ApiClient = Awaited<ReturnType<typeof apiClient>>;

interface ApiErrorBody {
  code: string;
  message: string;
  request_id: string;
  details?: { path: string; message: string }[];
}

export async function errorOf(response: Response): Promise<ApiErrorBody> {
  return ((await response.json()) as { error: ApiErrorBody }).error;
}
