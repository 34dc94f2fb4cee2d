import { apiPagingLimit } from '@flotilla/shared/constants/limits';
import {
  type AnyObject,
  type ConstructorParams,
  type ODataOptions,
  PinejsClientCore,
} from 'pinejs-client-core';
import type { HttpMethod, RequestFn } from './request.js';

const methods: readonly HttpMethod[] = ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'];

const isHttpMethod = (method: string): method is HttpMethod =>
  (methods as readonly string[]).includes(method);

// pine's `clone` rebuilds the client as `new this.constructor(params, backendParams)`, so the
// request function travels in backendParams.
export type PineBackend = { request: RequestFn };

export type PagedParams = {
  resource: string;
  options?: ODataOptions<AnyObject>;
  passthrough?: AnyObject;
};

// The v7 resource API (pinejs-client) over the client's request: auth, errors, rate-limit
// retries and connectivity apply to every call. Pass `passthrough: { signal }` to cancel.
// Untyped on purpose (any resource name, loosely typed rows): callers state the row shape with
// the types in resources/.
export class FlotillaPine extends PinejsClientCore {
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
  async getAllPaged<T = AnyObject>(params: PagedParams): Promise<T[]> {
    const rows: T[] = [];
    const options: ODataOptions<AnyObject> = { $orderby: 'id asc', ...params.options };
    for (let skip = 0; ; skip += apiPagingLimit) {
      const page: unknown[] = await this.get({
        resource: params.resource,
        options: { ...options, $top: apiPagingLimit, $skip: skip },
        ...(params.passthrough !== undefined ? { passthrough: params.passthrough } : {}),
      });
      // The caller names the row type; the API answers whatever the query selects.
      const batch = page as T[];
      rows.push(...batch);
      if (batch.length < apiPagingLimit) return rows;
    }
  }
}

export const createPine = (request: RequestFn): FlotillaPine =>
  new FlotillaPine({ apiPrefix: '/v7/' }, { request });
