import { responseMeta, type ResponseMeta } from "./response-meta.js";

/** An answer's data with the response it came in and what its headers say about the caller's limits. */
export interface WithResponse<T> {
  data: T;
  response: Response;
  meta: ResponseMeta;
}

/**
 * What every call returns: a promise of the data that can also give the response with it
 * (`await invoicing.customers.create(…).withResponse()`), so limits are read without a second call.
 */
export class ApiPromise<T> implements PromiseLike<T> {
  readonly #answer: Promise<{ data: T; response: Response }>;

  constructor(answer: Promise<{ data: T; response: Response }>) {
    this.#answer = answer;
  }

  then<Fulfilled = T, Rejected = never>(
    onFulfilled?: ((value: T) => Fulfilled | PromiseLike<Fulfilled>) | null,
    onRejected?: ((reason: unknown) => Rejected | PromiseLike<Rejected>) | null,
  ): Promise<Fulfilled | Rejected> {
    return this.#answer.then(({ data }) => data).then(onFulfilled, onRejected);
  }

  catch<Rejected = never>(onRejected?: ((reason: unknown) => Rejected | PromiseLike<Rejected>) | null): Promise<T | Rejected> {
    return this.then(undefined, onRejected);
  }

  finally(onFinally?: (() => void) | null): Promise<T> {
    return this.then().finally(onFinally);
  }

  async withResponse(): Promise<WithResponse<T>> {
    const { data, response } = await this.#answer;
    return { data, response, meta: responseMeta(response.headers) };
  }
}

/** A page of a list, as the API answers it. */
export interface Page<Item> {
  object: "list";
  data: Item[];
  has_more: boolean;
  next_cursor: string | null;
}

/**
 * A list call: awaited, its first page; iterated with `for await`, every item of every page, each
 * page asked for with the previous one's `next_cursor` as `starting_after` (docs/features/sdk.md#pagination).
 */
export class PagePromise<Item> extends ApiPromise<Page<Item>> implements AsyncIterable<Item> {
  readonly #nextPage: (cursor: string) => ApiPromise<Page<Item>>;

  constructor(first: Promise<{ data: Page<Item>; response: Response }>, nextPage: (cursor: string) => ApiPromise<Page<Item>>) {
    super(first);
    this.#nextPage = nextPage;
  }

  async *[Symbol.asyncIterator](): AsyncIterator<Item> {
    let page: Page<Item> = await this;
    for (;;) {
      yield* page.data;
      if (!page.has_more || page.next_cursor === null) return;
      page = await this.#nextPage(page.next_cursor);
    }
  }
}
