import { apiPagingLimit } from '@flotilla/shared/constants/limits';
import {
  type AnyObject,
  type AnyResource,
  type ConstructorParams,
  type ODataOptions,
  type OptionsToResponse,
  PinejsClientCore,
} from 'pinejs-client-core';
import { FlotillaApiError, messageOfErrorBody } from './errors.js';
import type { HttpMethod, RequestFn } from './request.js';
import type { V7Model, V7Resource } from './resources/v7-model.js';

const methods: readonly HttpMethod[] = ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'];

const isHttpMethod = (method: string): method is HttpMethod =>
  (methods as readonly string[]).includes(method);

// pine's `clone` rebuilds the client as `new this.constructor(params, backendParams)`, so the
// request function travels in backendParams.
export type PineBackend = { request: RequestFn };

// The query options of one resource, typed by its fields and navigations.
export type PineOptions<R extends V7Resource> = ODataOptions<V7Model[R]['Read']>;
export type PineFilter<R extends V7Resource> = NonNullable<PineOptions<R>['$filter']>;

export type PagedParams<R extends V7Resource, O extends PineOptions<R>> = {
  resource: R;
  options?: O;
  passthrough?: AnyObject;
};

// The rows a list query of resource R with options O answers.
export type PineRows<R extends V7Resource, O extends PineOptions<R>> = OptionsToResponse<
  V7Model[R]['Read'],
  O,
  undefined
>;

// The v7 resource API (pinejs-client) over the client's request: auth, errors, rate-limit
// retries and connectivity apply to every call. Pass `passthrough: { signal }` to cancel.
// Typed by V7Model: the answer's type follows the query's $select and $expand.
export class FlotillaPine extends PinejsClientCore<V7Model> {
  readonly #request: RequestFn;

  constructor(params: string | ConstructorParams, backendParams: PineBackend) {
    super(params);
    this.backendParams = backendParams;
    this.#request = backendParams.request;
  }

  override async _request(
    params: { method: string; url: string; body?: AnyObject } & AnyObject,
  ): Promise<NonNullable<unknown>> {
    const method = params.method.toUpperCase();
    if (!isHttpMethod(method)) throw new Error(`Unsupported method ${params.method}`);
    const signal: unknown = params.signal;
    const body = await this.#request<unknown>({
      method,
      path: params.url,
      ...(params.body !== undefined ? { body: params.body } : {}),
      ...(signal instanceof AbortSignal ? { signal } : {}),
      retryRateLimited: true,
    });
    // PATCH, PUT and DELETE answer with an empty body.
    return body ?? '';
  }

  // Every row of a list query, fetched 350 at a time (the API's paging limit) until a short
  // page. Ordered by id unless the query orders itself, so that pages do not overlap.
  getAllPaged<R extends V7Resource, O extends PineOptions<R>>(
    params: PagedParams<R, O>,
  ): Promise<PineRows<R, O>>;
  // The rows of every page as the API sends them; the overload above types them by the query.
  async getAllPaged(params: {
    resource: V7Resource;
    options?: ODataOptions<AnyObject>;
    passthrough?: AnyObject;
  }): Promise<AnyObject[]> {
    const rows: AnyObject[] = [];
    const options: ODataOptions<AnyObject> = { $orderby: { id: 'asc' }, ...params.options };
    for (let skip = 0; ; skip += apiPagingLimit) {
      // One page through the untyped request; the rows are typed once, below.
      const { d: page } = await this.request<AnyResource>({
        resource: params.resource,
        options: { ...options, $top: apiPagingLimit, $skip: skip },
        ...(params.passthrough !== undefined ? { passthrough: params.passthrough } : {}),
      });
      rows.push(...page);
      if (page.length < apiPagingLimit) return rows;
    }
  }

  // Several list reads in one HTTP request (`POST /v7/$batch`): a screen that needs seven
  // counts pays the cost of one request, not seven. Answers come in the order asked; the first
  // read that failed throws as its own GET would have.
  getBatch<R extends V7Resource, O extends PineOptions<R>>(
    requests: readonly PagedParams<R, O>[],
    passthrough?: { signal?: AbortSignal },
  ): Promise<PineRows<R, O>[]>;
  // The rows as the API sends them; the overload above types them by the queries.
  async getBatch(
    requests: readonly { resource: V7Resource; options?: ODataOptions<AnyObject> }[],
    passthrough: { signal?: AbortSignal } = {},
  ): Promise<AnyObject[][]> {
    // Encoded as fetch encodes a GET's address, so the server reads what a GET would send.
    const urls = requests.map((params) => {
      const url = new URL(`/v7/${this.compile(params)}`, 'http://batch.invalid');
      return url.pathname + url.search;
    });
    const answer = await this.#request<unknown>({
      method: 'POST',
      path: '/v7/$batch',
      body: { requests: urls.map((url, index) => ({ id: String(index), method: 'GET', url })) },
      ...(passthrough.signal ? { signal: passthrough.signal } : {}),
      retryRateLimited: true,
      readOnly: true,
    });
    if (!isBatchAnswer(answer) || answer.responses.length !== urls.length) {
      throw new Error('The API answered a batch of reads with something else');
    }
    return answer.responses.map((response, index) => {
      const url = urls[index] ?? '';
      const rows = response.status === 200 ? rowsOf(response.body) : undefined;
      if (rows) return rows;
      const text =
        typeof response.body === 'string' ? response.body : JSON.stringify(response.body);
      throw new FlotillaApiError({
        status: response.status,
        body: text,
        message: messageOfErrorBody(response.body, text),
        method: 'GET',
        path: url,
        token: null,
      });
    });
  }
}

type BatchResponse = { id: string; status: number; body: unknown };

const isBatchAnswer = (value: unknown): value is { responses: BatchResponse[] } =>
  typeof value === 'object' &&
  value !== null &&
  'responses' in value &&
  Array.isArray(value.responses) &&
  value.responses.every(
    (entry: unknown) =>
      typeof entry === 'object' &&
      entry !== null &&
      'id' in entry &&
      typeof entry.id === 'string' &&
      'status' in entry &&
      typeof entry.status === 'number' &&
      'body' in entry,
  );

const rowsOf = (body: unknown): AnyObject[] | undefined =>
  typeof body === 'object' && body !== null && 'd' in body && Array.isArray(body.d)
    ? body.d.filter((row: unknown): row is AnyObject => typeof row === 'object' && row !== null)
    : undefined;

export const createPine = (request: RequestFn): FlotillaPine =>
  new FlotillaPine({ apiPrefix: '/v7/' }, { request });
