import { describe, expect, it } from 'vitest';
import { systemClock } from './clock.js';
import { FlotillaApiError, FlotillaNetworkError } from './errors.js';
import type { HttpDeps } from './http-exchange.js';
import { openHttpStream } from './http-stream.js';

const deps = (fetch: HttpDeps['fetch']): HttpDeps => ({
  apiUrl: 'https://api.test',
  fetch,
  clientHeader: 'test',
  clock: systemClock,
  getToken: () => 'tok',
});

describe('openHttpStream', () => {
  it('sends the token and hands back the body of a 2xx answer unread', async () => {
    const seen: { url: string; auth: string | null }[] = [];
    const body = await openHttpStream(
      deps(async (input, init) => {
        seen.push({ url: String(input), auth: new Headers(init?.headers).get('authorization') });
        return new Response('{"message":"a"}\n');
      }),
      { path: '/device/v2/x/logs', query: { stream: 1, count: 100 } },
    );
    expect(seen).toEqual([
      { url: 'https://api.test/device/v2/x/logs?stream=1&count=100', auth: 'Bearer tok' },
    ]);
    expect(await new Response(body).text()).toBe('{"message":"a"}\n');
  });

  it("sends the caller's headers (Last-Event-ID) beside its own, which they cannot replace", async () => {
    const seen: Headers[] = [];
    await openHttpStream(
      deps(async (_input, init) => {
        seen.push(new Headers(init?.headers));
        return new Response(': connected\n\n');
      }),
      {
        path: '/events/v1/stream',
        headers: { 'Last-Event-ID': '42', 'X-Balena-Client': 'other' },
      },
    );
    expect(seen[0]?.get('last-event-id')).toBe('42');
    expect(seen[0]?.get('x-balena-client')).toBe('test');
    expect(seen[0]?.get('authorization')).toBe('Bearer tok');
  });

  it('posts a JSON body or a file and asks for NDJSON', async () => {
    const seen: { method: string | undefined; type: string | null; accept: string | null }[] = [];
    const bodies: unknown[] = [];
    const fetch: HttpDeps['fetch'] = async (_input, init) => {
      const headers = new Headers(init?.headers);
      seen.push({
        method: init?.method,
        type: headers.get('content-type'),
        accept: headers.get('accept'),
      });
      bodies.push(init?.body);
      return new Response('{"line":"a"}\n');
    };
    await openHttpStream(deps(fetch), { path: '/b', post: { json: { url: 'https://x.test/p' } } });
    const file = new Blob(['tar']);
    await openHttpStream(deps(fetch), {
      path: '/b',
      post: { upload: { data: file, contentType: 'application/gzip' } },
    });
    expect(seen).toEqual([
      { method: 'POST', type: 'application/json', accept: 'application/x-ndjson' },
      { method: 'POST', type: 'application/gzip', accept: 'application/x-ndjson' },
    ]);
    expect(bodies).toEqual(['{"url":"https://x.test/p"}', file]);
  });

  it('raises an API error for an error answer and a network error when there is none', async () => {
    const refused = openHttpStream(
      deps(async () => new Response('Service unavailable', { status: 503 })),
      { path: '/p' },
    );
    await expect(refused).rejects.toBeInstanceOf(FlotillaApiError);
    await expect(refused).rejects.toMatchObject({ status: 503, message: 'Service unavailable' });
    await expect(
      openHttpStream(
        deps(async () => {
          throw new TypeError('fetch failed');
        }),
        { path: '/p' },
      ),
    ).rejects.toBeInstanceOf(FlotillaNetworkError);
  });
});
