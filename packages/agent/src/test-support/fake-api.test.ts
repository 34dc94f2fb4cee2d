import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { FakeApi, json } from './fake-api.js';

describe('FakeApi', () => {
  it('answers what a handler takes and fails the test on a request none takes', async () => {
    const api = await new FakeApi().listen();
    api.on((request, response) =>
      request.path === '/ping' ? json(response, 200, 'OK') : undefined,
    );
    expect((await fetch(`${api.url}/ping`)).status).toBe(200);
    expect((await fetch(`${api.url}/v7/device`, { method: 'PATCH' })).status).toBe(500);
    expect(api.unexpected).toEqual(['PATCH /v7/device']);
    await expect(api.close()).rejects.toThrow(/no handler for: PATCH \/v7\/device/);
  });

  it('refuses a websocket to any path but the cloudlink', async () => {
    const api = await new FakeApi().listen();
    const socket = new WebSocket(`${api.url.replace('http', 'ws')}/other`);
    await new Promise((resolve) => socket.once('error', resolve));
    expect(api.unexpected).toEqual(['websocket /other']);
    await expect(api.close()).rejects.toThrow(/websocket \/other/);
  });
});
