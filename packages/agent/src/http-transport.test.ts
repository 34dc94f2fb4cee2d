import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { text } from 'node:stream/consumers';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient } from './api-client.js';

describe("the API client over node's http", () => {
  let server: Server | undefined;

  afterEach(async () => {
    await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
    server?.closeAllConnections();
  });

  const listen = async (
    handler: (request: IncomingMessage, body: string) => { status: number; body: string } | null,
  ): Promise<string> => {
    server = createServer((request, response) => {
      void text(request).then((body) => {
        const answer = handler(request, body);
        if (!answer) return; // never answers
        response.writeHead(answer.status, {
          'content-type': 'application/json',
          ETag: '"v1"',
          'Set-Cookie': ['a=1', 'b=2'],
        });
        response.end(answer.body);
      });
    });
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server?.address() as AddressInfo).port}`;
  };

  it('sends the body and the headers, and reads the answer with its headers by any case', async () => {
    const seen: { method?: string; auth?: string; length?: string; body?: string }[] = [];
    const baseUrl = await listen((request, body) => {
      seen.push({
        method: request.method,
        auth: request.headers.authorization,
        length: request.headers['content-length'],
        body,
      });
      return { status: 201, body: '{"ok":true}' };
    });
    const client = new ApiClient({ baseUrl, token: 'key' });
    const response = await client.request({ method: 'POST', path: '/x', body: { é: 1 } }, [201]);
    expect(response.body).toEqual({ ok: true });
    expect(response.headers.get('etag')).toBe('"v1"');
    expect(response.headers.get('ETag')).toBe('"v1"');
    expect(response.headers.get('set-cookie')).toBe('a=1, b=2');
    expect(response.headers.get('retry-after')).toBeNull();
    // The length in bytes (é is two), not characters.
    expect(seen).toEqual([{ method: 'POST', auth: 'Bearer key', length: '8', body: '{"é":1}' }]);
  });

  it('gives up on a server that does not answer in time', async () => {
    const baseUrl = await listen(() => null);
    const client = new ApiClient({ baseUrl, timeoutMs: 100 });
    await expect(client.send({ method: 'GET', path: '/slow' })).rejects.toThrow(
      'GET /slow failed: timed out',
    );
  });

  it('says why when nothing answers', async () => {
    const client = new ApiClient({ baseUrl: 'http://127.0.0.1:9' });
    await expect(client.send({ method: 'GET', path: '/' })).rejects.toMatchObject({
      status: null,
      message: expect.stringMatching(/^GET \/ failed: connect ECONNREFUSED/),
    });
  });
});
