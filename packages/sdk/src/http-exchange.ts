import type { Clock } from './clock.js';
import { FlotillaApiError, FlotillaNetworkError, messageOfErrorBody } from './errors.js';
import type { RequestOptions } from './request.js';

export const defaultTimeoutMs = 59_000;

export type HttpDeps = {
  apiUrl: string;
  fetch: typeof fetch;
  clientHeader: string;
  clock: Clock;
  getToken: () => string | null;
};

const urlOf = (apiUrl: string, path: string, query: RequestOptions['query']): string => {
  const parts = Object.entries(query ?? {})
    .filter((entry): entry is [string, string | number | boolean] => entry[1] !== undefined)
    .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`);
  const separator = path.includes('?') ? '&' : '?';
  return `${apiUrl}${path}${parts.length > 0 ? separator + parts.join('&') : ''}`;
};

const isJson = (contentType: string | null): boolean =>
  contentType !== null && /\bapplication\/(?:[\w.+-]*\+)?json\b/i.test(contentType);

const parseBody = (text: string, contentType: string | null): unknown => {
  if (!isJson(contentType) || text === '') return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
};

// Retry-After is either delay-seconds or an HTTP date.
const retryAfterSecondsOf = (header: string | null, now: number): number | undefined => {
  if (header === null || header.trim() === '') return undefined;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
};

const abortReason = (signal: AbortSignal): unknown =>
  signal.reason ?? new DOMException('The operation was aborted.', 'AbortError');

// One HTTP exchange: headers, JSON body, timeout, parsing by content type and the mapping of
// failures to FlotillaApiError (an answer >= 400) or FlotillaNetworkError (no answer).
export const sendHttp = async <T>(deps: HttpDeps, options: RequestOptions): Promise<T> => {
  const method = options.method ?? 'GET';
  const { signal } = options;
  if (signal?.aborted) throw abortReason(signal);

  const headers: Record<string, string> = { 'X-Balena-Client': deps.clientHeader };
  const token = options.auth === false ? null : deps.getToken();
  if (token !== null && token !== '') headers.Authorization = `Bearer ${token}`;
  let body: string | Blob | undefined;
  if (options.upload !== undefined) {
    headers['Content-Type'] = options.upload.contentType;
    body = options.upload.data;
  } else if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.body);
  }

  const controller = new AbortController();
  let timedOut = false;
  const timer = deps.clock.setTimer(() => {
    timedOut = true;
    controller.abort();
  }, options.timeoutMs ?? defaultTimeoutMs);
  const forwardAbort = () => controller.abort(signal?.reason);
  signal?.addEventListener('abort', forwardAbort, { once: true });

  try {
    let response: Response;
    let text: string;
    try {
      // Called unbound: browsers refuse fetch with any `this` but the window (or none).
      const send = deps.fetch;
      response = await send(urlOf(deps.apiUrl, options.path, options.query), {
        method,
        headers,
        ...(body !== undefined ? { body } : {}),
        signal: controller.signal,
      });
      text = await response.text();
    } catch (error) {
      if (signal?.aborted) throw abortReason(signal);
      throw new FlotillaNetworkError(timedOut ? 'timeout' : 'network', { cause: error });
    }
    const parsed = parseBody(text, response.headers.get('content-type'));
    if (response.status >= 400) {
      const message = messageOfErrorBody(parsed, text);
      const retryAfterSeconds = retryAfterSecondsOf(
        response.headers.get('retry-after'),
        deps.clock.now(),
      );
      throw new FlotillaApiError({
        status: response.status,
        body: text,
        message: message === '' ? `${response.status} ${response.statusText}`.trim() : message,
        ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}),
        receivedAt: deps.clock.now(),
        method,
        path: options.path,
        token: headers.Authorization === undefined ? null : token,
      });
    }
    // The caller states what the endpoint answers; nothing here can check it.
    return parsed as T;
  } finally {
    deps.clock.clearTimer(timer);
    signal?.removeEventListener('abort', forwardAbort);
  }
};
