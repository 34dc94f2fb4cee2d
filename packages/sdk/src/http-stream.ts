import { FlotillaApiError, FlotillaNetworkError, messageOfErrorBody } from './errors.js';
import type { HttpDeps } from './http-exchange.js';
import type { QueryValue } from './request.js';

export type StreamOptions = {
  // Relative to the API root, e.g. '/device/v2/abc/logs'.
  path: string;
  query?: Record<string, QueryValue>;
  signal?: AbortSignal;
};

const urlOf = (apiUrl: string, path: string, query: StreamOptions['query']): string => {
  const parts = Object.entries(query ?? {})
    .filter((entry): entry is [string, string | number | boolean] => entry[1] !== undefined)
    .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`);
  return `${apiUrl}${path}${parts.length > 0 ? `?${parts.join('&')}` : ''}`;
};

// A GET whose answer is read as it arrives (the NDJSON log stream): the body once the server
// answered 2xx, FlotillaApiError for an error answer, FlotillaNetworkError when there was none.
// No timeout: a stream stays open as long as the caller wants (abort the signal to end it).
export const openHttpStream = async (
  deps: HttpDeps,
  options: StreamOptions,
): Promise<ReadableStream<Uint8Array>> => {
  const headers: Record<string, string> = { 'X-Balena-Client': deps.clientHeader };
  const token = deps.getToken();
  if (token !== null && token !== '') headers.Authorization = `Bearer ${token}`;
  let response: Response;
  try {
    const send = deps.fetch;
    response = await send(urlOf(deps.apiUrl, options.path, options.query), {
      headers,
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } catch (error) {
    if (options.signal?.aborted) throw error;
    throw new FlotillaNetworkError('network', { cause: error });
  }
  if (response.status >= 400 || response.body === null) {
    const text = await response.text().catch(() => '');
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // A plain-text error answer.
    }
    const message = messageOfErrorBody(parsed, text);
    throw new FlotillaApiError({
      status: response.status,
      body: text,
      message: message === '' ? `${response.status} ${response.statusText}`.trim() : message,
      method: 'GET',
      path: options.path,
      token: headers.Authorization === undefined ? null : token,
    });
  }
  return response.body;
};
