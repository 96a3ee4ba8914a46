import createClient, { type Client } from "openapi-fetch";
import { ApiPromise } from "./api-promise.js";
import { ConnectionError, errorOfAnswer } from "./errors.js";
import type { paths } from "./generated/openapi.js";
import { DEFAULT_RETRY_POLICY, retryingFetch, type RetryPolicy } from "./retrying-fetch.js";

export const SDK_VERSION = "0.1.0";

export interface ClientOptions {
  /** An API key of your organization (`ik_…` live, `ik_test_…` test); defaults to INVOICING_API_KEY. */
  apiKey?: string;
  /** Where the API is served; defaults to INVOICING_BASE_URL, then http://localhost:3000. */
  baseUrl?: string;
  /** Retries after the first attempt (default 2). */
  maxRetries?: number;
  /** Longest Retry-After waited for, in seconds (default 60). */
  maxRetryAfterSeconds?: number;
  /** Each attempt's time limit in milliseconds (default 60,000). */
  timeoutMs?: number;
  /** Another fetch, for a proxy or a test. */
  fetch?: typeof fetch;
}

/** Options of one call. */
export interface RequestOptions {
  /** The POST's Idempotency-Key; one is generated when none is given, so retries create one object. */
  idempotencyKey?: string;
  signal?: AbortSignal;
  maxRetries?: number;
  timeoutMs?: number;
  headers?: Record<string, string>;
}

/** The key and the API's address, from the options or the environment, as every client of the package reads them. */
export function connection(options: Pick<ClientOptions, "apiKey" | "baseUrl"> = {}): { apiKey: string; baseUrl: string } {
  const apiKey = options.apiKey ?? process.env.INVOICING_API_KEY;
  if (!apiKey) throw new TypeError("No API key: pass { apiKey } or set INVOICING_API_KEY. Create a key in the dashboard under Settings › API keys.");
  return { apiKey, baseUrl: (options.baseUrl ?? process.env.INVOICING_BASE_URL ?? "http://localhost:3000").replace(/\/+$/, "") };
}

type DataOf<Result> = Result extends { data: infer Data } ? Exclude<Data, undefined> : never;

/** What the resources share: the typed openapi-fetch client and how a call is sent and settled. */
export class Core {
  readonly http: Client<paths>;
  readonly #policy: RetryPolicy;
  readonly #fetch: typeof fetch;

  constructor(options: ClientOptions = {}) {
    const { apiKey, baseUrl } = connection(options);
    this.#fetch = options.fetch ?? globalThis.fetch;
    this.#policy = {
      maxRetries: options.maxRetries ?? DEFAULT_RETRY_POLICY.maxRetries,
      maxRetryAfterSeconds: options.maxRetryAfterSeconds ?? DEFAULT_RETRY_POLICY.maxRetryAfterSeconds,
      timeoutMs: options.timeoutMs ?? DEFAULT_RETRY_POLICY.timeoutMs,
    };
    this.http = createClient<paths>({
      baseUrl,
      headers: { "X-API-Key": apiKey, "User-Agent": `invoicing-sdk/${SDK_VERSION} node/${process.versions.node}` },
      fetch: retryingFetch(this.#fetch, this.#policy),
    });
  }

  /** openapi-fetch's options for one call: its headers, signal, and a fetch with the call's retry policy when it has its own. */
  init(options: RequestOptions = {}) {
    const headers: Record<string, string> = { ...options.headers };
    if (options.idempotencyKey !== undefined) headers["Idempotency-Key"] = options.idempotencyKey;
    const ownPolicy = options.maxRetries !== undefined || options.timeoutMs !== undefined;
    return {
      headers,
      signal: options.signal,
      ...(ownPolicy && {
        fetch: retryingFetch(this.#fetch, {
          ...this.#policy,
          maxRetries: options.maxRetries ?? this.#policy.maxRetries,
          timeoutMs: options.timeoutMs ?? this.#policy.timeoutMs,
        }),
      }),
    };
  }

  /** A call's answer: its data on success, else the typed error of its status; ConnectionError when no answer came. */
  call<Result extends { response: Response; error?: unknown }>(sent: Promise<Result>): ApiPromise<DataOf<Result>> {
    return new ApiPromise(settle<Result>(sent));
  }
}

export async function settle<Result extends { response: Response; error?: unknown }>(
  sent: Promise<Result>,
): Promise<{ data: DataOf<Result>; response: Response }> {
  let result: Result;
  try {
    result = await sent;
  } catch (error) {
    // The caller's own abort is theirs to handle; a timeout is no answer, like a dropped connection.
    if (error instanceof Error && error.name === "AbortError") throw error;
    throw new ConnectionError(
      `No answer from the API: ${error instanceof Error ? error.message : String(error)}`,
      { status: null, code: "connection_error" },
      { cause: error },
    );
  }
  if (!result.response.ok) throw errorOfAnswer(result.response, result.error);
  return { data: (result as unknown as { data: DataOf<Result> }).data, response: result.response };
}
