import type { AddressInfo } from 'node:net';
import type { ActionResult } from '@flotilla/shared/cloudlink/messages';
import { describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { connectFakeDevice } from './fake-device-client.js';

describe('connectFakeDevice', () => {
  it('answers action requests and makes close() fail on a message it does not understand', async () => {
    const server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    await new Promise((resolve) => server.once('listening', resolve));
    const { port } = server.address() as AddressInfo;
    const results: ActionResult[] = [];
    server.on('connection', (socket) => {
      socket.on('message', (data) => results.push(JSON.parse(String(data)) as ActionResult));
      socket.send(JSON.stringify({ type: 'terminal', id: 't1' }));
      socket.send(JSON.stringify({ type: 'action', id: 'a1', action: 'blink', params: {} }));
    });
    try {
      const fake = await connectFakeDevice(`http://127.0.0.1:${port}`, 'key');
      await expect
        .poll(() => results)
        .toEqual([{ type: 'result', id: 'a1', status: 200, body: 'OK' }]);
      expect(fake.received.map((request) => request.id)).toEqual(['a1']);
      expect(fake.unexpected).toEqual(['{"type":"terminal","id":"t1"}']);
      await expect(fake.close()).rejects.toThrow(/does not understand: \{"type":"terminal"/);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
