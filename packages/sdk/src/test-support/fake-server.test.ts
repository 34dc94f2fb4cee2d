import { describe, expect, it } from 'vitest';
import { createFakeServer, testApiUrl } from './fake-server.js';

describe('createFakeServer', () => {
  it('answers what a route takes and rejects a request no route takes', async () => {
    const server = createFakeServer();
    server.on('GET', '/config', { json: {} });
    expect((await server.fetch(`${testApiUrl}/config`)).status).toBe(200);
    await expect(server.fetch(`${testApiUrl}/v7/nope?$top=1`)).rejects.toThrow(
      'the fake server has no route for GET /v7/nope',
    );
    expect(server.unexpected).toEqual(['GET /v7/nope']);
    // Seen and asserted: the check at the end of the test would fail it otherwise.
    server.unexpected.length = 0;
  });

  it.fails('fails the test whose code swallowed the rejection', async () => {
    const server = createFakeServer();
    await server.fetch(`${testApiUrl}/v7/nope`).catch(() => undefined);
  });
});
