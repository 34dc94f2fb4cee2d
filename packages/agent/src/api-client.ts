import { Backoff, type BackoffPolicy, parseRetryAfter } from './backoff.js';
import { type Clock, type Random, sleep, systemClock } from './clock.js';
import {
  fetchTransport,
  type HttpTransport,
  httpTransport,
  type ResponseHeaders,
  type TransportResponse,
} from './http-transport.js';
import { userAgent } from './version.js';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export type ApiRequest = {
  method: HttpMethod;
  // Path and query, starting with '/'.
  path: string;
  // Serialised as JSON unless it is already a string.
  body?: unknown;
  headers?: Record<string, string>;
  // Overrides the client's token for this call (the provisioning key during registration).
  token?: string;
  timeoutMs?: number;
  signal?: AbortSignal;
};

export type ApiResponse = {
  status: number;
  headers: ResponseHeaders;
  // Parsed JSON when the server says so, else the text ('' for an empty body).
  body: unknown;
};

// A failed call: `status` is null when no response arrived (network error or timeout).
export class ApiError extends Error {
  readonly status: number | null;
  readonly retryAfterMs: number | null;
  readonly body: unknown;

  constructor(message: string, status: number | null, retryAfterMs: number | null, body: unknown) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.retryAfterMs = retryAfterMs;
    this.body = body;
  }
}

// Worth another attempt: no answer at all, a timeout, throttling, or a server-side failure.
export const isTransient = (error: unknown): boolean =>
  error instanceof ApiError &&
  (error.status === null || error.status === 408 || error.status === 429 || error.status >= 500);

export type ApiClientOptions = {
  baseUrl: string;
  token?: string;
  timeoutMs?: number;
  clock?: Clock;
  random?: Random;
  // How requests go out: node's http by default (http-transport.ts); tests may answer through a
  // fetch function instead.
  fetch?: typeof fetch;
};

export type RetryOptions = {
  attempts?: number;
  policy?: BackoffPolicy;
  signal?: AbortSignal;
  onRetry?: (error: ApiError, delayMs: number) => void;
};

const defaultTimeoutMs = 30_000;
export const defaultRetryPolicy: BackoffPolicy = { baseMs: 1000, maxMs: 60_000 };

const describeBody = (body: unknown): string => {
  if (typeof body === 'string') return body.slice(0, 200);
  if (body && typeof body === 'object') return JSON.stringify(body).slice(0, 200);
  return '';
};

export class ApiClient {
  readonly baseUrl: string;
  readonly token: string | undefined;
  readonly #options: ApiClientOptions;
  readonly #clock: Clock;
  readonly #random: Random;
  readonly #transport: HttpTransport;

  constructor(options: ApiClientOptions) {
    this.#options = options;
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.token = options.token;
    this.#clock = options.clock ?? systemClock;
    this.#random = options.random ?? Math.random;
    this.#transport = options.fetch ? fetchTransport(options.fetch) : httpTransport;
  }

  withToken(token: string): ApiClient {
    return new ApiClient({ ...this.#options, token });
  }

  url(path: string): string {
    return `${this.baseUrl}${path}`;
  }

  // One attempt; any HTTP status is returned, only a missing response throws.
  async send(request: ApiRequest): Promise<ApiResponse> {
    const headers: Record<string, string> = { 'user-agent': userAgent, ...request.headers };
    const token = request.token ?? this.token;
    if (token) headers.authorization = `Bearer ${token}`;
    let body: string | undefined;
    if (request.body !== undefined) {
      body = typeof request.body === 'string' ? request.body : JSON.stringify(request.body);
      headers['content-type'] ??= 'application/json';
    }
    const timeout = AbortSignal.timeout(
      request.timeoutMs ?? this.#options.timeoutMs ?? defaultTimeoutMs,
    );
    const signal = request.signal ? AbortSignal.any([timeout, request.signal]) : timeout;
    let response: TransportResponse;
    try {
      response = await this.#transport(this.url(request.path), {
        method: request.method,
        headers,
        ...(body === undefined ? {} : { body }),
        signal,
      });
    } catch (error) {
      const reason = timeout.aborted
        ? 'timed out'
        : error instanceof Error
          ? (error.cause instanceof Error ? error.cause.message : '') || error.message
          : String(error);
      throw new ApiError(`${request.method} ${request.path} failed: ${reason}`, null, null, null);
    }
    const { text } = response;
    const isJson = /\bjson\b/.test(response.headers.get('content-type') ?? '');
    let parsed: unknown = text;
    if (isJson && text !== '') {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = text;
      }
    }
    return { status: response.status, headers: response.headers, body: parsed };
  }

  // One attempt that must answer one of `expected`; anything else becomes an ApiError.
  async request(request: ApiRequest, expected: readonly number[] = [200]): Promise<ApiResponse> {
    const response = await this.send(request);
    if (expected.includes(response.status)) return response;
    const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'), this.#clock.now());
    const detail = describeBody(response.body);
    throw new ApiError(
      `${request.method} ${request.path} answered ${response.status}${detail ? `: ${detail}` : ''}`,
      response.status,
      retryAfterMs,
      response.body,
    );
  }

  // Retries transient failures with capped exponential backoff and jitter (Retry-After wins
  // when longer); a definite refusal (4xx) is thrown at once.
  async requestWithRetry(
    request: ApiRequest,
    expected: readonly number[] = [200],
    options: RetryOptions = {},
  ): Promise<ApiResponse> {
    const backoff = new Backoff(options.policy ?? defaultRetryPolicy, this.#random);
    const attempts = options.attempts ?? Number.POSITIVE_INFINITY;
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.request({ ...request, signal: options.signal }, expected);
      } catch (error) {
        if (!(error instanceof ApiError) || !isTransient(error) || attempt >= attempts) throw error;
        if (options.signal?.aborted) throw error;
        const delay = backoff.fail(error.retryAfterMs);
        options.onRetry?.(error, delay);
        await sleep(this.#clock, delay, options.signal);
      }
    }
  }
}
