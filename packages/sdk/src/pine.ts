import { apiPagingLimit } from '@flotilla/shared/constants/limits';
import {
  type AnyObject,
  type AnyResource,
  type ConstructorParams,
  type ODataOptions,
  type OptionsToResponse,
  PinejsClientCore,
} from 'pinejs-client-core';
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
}

export const createPine = (request: RequestFn): FlotillaPine =>
  new FlotillaPine({ apiPrefix: '/v7/' }, { request });
