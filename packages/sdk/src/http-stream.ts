import { FlotillaApiError, FlotillaNetworkError, messageOfErrorBody } from './errors.js';
import type { HttpDeps } from './http-exchange.js';
import type { QueryValue } from './request.js';

export type StreamOptions = {
  // Relative to the API root, e.g. '/device/v2/abc/logs'.
  path: string;
  query?: Record<string, QueryValue>;
  signal?: AbortSignal;
  // A POST whose answer streams (the builder's live log): a JSON body or a file sent as is.
  post?: { json: unknown } | { upload: { data: Blob; contentType: string } };
  // More request headers (a server-sent events stream's Last-Event-ID).
  headers?: Record<string, string>;
};

const urlOf = (apiUrl: string, path: string, query: StreamOptions['query']): string => {
  const parts = Object.entries(query ?? {})
    .filter((entry): entry is [string, string | number | boolean] => entry[1] !== undefined)
    .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`);
  return `${apiUrl}${path}${parts.length > 0 ? `?${parts.join('&')}` : ''}`;
};

// A GET (or POST) whose answer is read as it arrives (an NDJSON stream): the body once the server
// answered 2xx, FlotillaApiError for an error answer, FlotillaNetworkError when there was none.
// No timeout: a stream stays open as long as the caller wants (abort the signal to end it).
export const openHttpStream = async (
  deps: HttpDeps,
  options: StreamOptions,
): Promise<ReadableStream<Uint8Array>> => {
  const headers: Record<string, string> = {
    ...options.headers,
    'X-Balena-Client': deps.clientHeader,
  };
  const token = deps.getToken();
  if (token !== null && token !== '') headers.Authorization = `Bearer ${token}`;
  const { post } = options;
  // A POST asks for the streamed answer (the builder answers JSON otherwise).
  if (post !== undefined) headers.Accept = 'application/x-ndjson';
  let body: string | Blob | undefined;
  if (post !== undefined && 'json' in post) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(post.json);
  } else if (post !== undefined) {
    headers['Content-Type'] = post.upload.contentType;
    body = post.upload.data;
  }
  const method = post === undefined ? 'GET' : 'POST';
  let response: Response;
  try {
    const send = deps.fetch;
    response = await send(urlOf(deps.apiUrl, options.path, options.query), {
      method,
      headers,
      ...(body === undefined ? {} : { body }),
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
      method,
      path: options.path,
      token: headers.Authorization === undefined ? null : token,
    });
  }
  return response.body;
};
