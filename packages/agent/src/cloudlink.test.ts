import type { ActionRequest, ActionResult, Hello } from '@flotilla/shared/cloudlink/messages';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { systemClock } from './clock.js';
import { CloudlinkClient, type CloudlinkOptions } from './cloudlink.js';
import { silentLogger } from './logger.js';
import { Scheduler } from './scheduler.js';
import { FakeApi } from './test-support/fake-api.js';

const uuid = 'f'.repeat(32);

type Message = ActionResult | Hello;

const messages = (socket: WebSocket): Message[] => {
  const received: Message[] = [];
  socket.on('message', (data) => received.push(JSON.parse(String(data)) as Message));
  return received;
};

describe('CloudlinkClient', () => {
  let api: FakeApi;
  let scheduler: Scheduler;
  let client: CloudlinkClient;
  let received: Message[][];
  let headers: Record<string, string | string[] | undefined>[];

  const start = (options: Partial<CloudlinkOptions> = {}): CloudlinkClient => {
    client = new CloudlinkClient({
      baseUrl: api.url,
      uuid,
      deviceApiKey: 'device-key',
      scheduler,
      random: () => 0,
      logger: silentLogger,
      reconnect: { baseMs: 40, maxMs: 200 },
      handler: async (request) => {
        if (request.action === 'reboot' && !request.params.force)
          return { status: 423, body: { Error: 'locked' } };
        if (request.action === 'device-state') throw new Error('broken');
        return { status: 200, body: { action: request.action, params: request.params } };
      },
      ...options,
    });
    client.start();
    return client;
  };

  const send = (index: number, request: Omit<ActionRequest, 'type'>): void =>
    api.sockets[index]?.send(JSON.stringify({ type: 'action', ...request }));

  beforeEach(async () => {
    api = await new FakeApi().listen();
    scheduler = new Scheduler(systemClock);
    received = [];
    headers = [];
    api.wss.on('connection', (socket, request) => {
      received.push(messages(socket));
      headers.push(request.headers);
    });
  });
  afterEach(async () => {
    await client.stop();
    scheduler.stop();
    await api.close();
  });

  it('says hello with the device key and answers each action with one result', async () => {
    start();
    await api.waitFor(() => received[0]?.length === 1, 'hello');
    expect(headers[0]?.authorization).toBe('Bearer device-key');
    expect(received[0]?.[0]).toEqual({ type: 'hello', uuid, agentVersion: expect.any(String) });
    expect(client.connected).toBe(true);

    send(0, { id: 'a1', action: 'blink', params: { appId: 3 } });
    send(0, { id: 'a2', action: 'reboot', params: {} });
    send(0, { id: 'a3', action: 'reboot', params: { force: true } });
    send(0, { id: 'a4', action: 'device-state', params: {} });
    api.sockets[0]?.send(
      JSON.stringify({ type: 'action', id: 'a5', action: 'format-disk', params: {} }),
    );
    api.sockets[0]?.send('not json');
    await api.waitFor(() => received[0]?.length === 6, 'five results');
    const results = Object.fromEntries(
      (received[0] ?? [])
        .filter((message) => message.type === 'result')
        .map((message) => [message.id, message]),
    );
    expect(results.a1).toEqual({
      type: 'result',
      id: 'a1',
      status: 200,
      body: { action: 'blink', params: { appId: 3 } },
    });
    expect(results.a2).toMatchObject({ status: 423 });
    expect(results.a3).toMatchObject({ status: 200, body: { params: { force: true } } });
    expect(results.a4).toMatchObject({ status: 500, body: { Error: 'broken' } });
    expect(results.a5).toMatchObject({ status: 400 });
  });

  it('reconnects with backoff after the server drops it, and says hello again', async () => {
    const changes: boolean[] = [];
    start({ onConnectedChange: (connected) => changes.push(connected) });
    await api.waitFor(() => client.connected, 'first connection');
    api.sockets[0]?.terminate();
    await api.waitFor(() => !client.connected, 'the drop');
    const droppedAt = Date.now();
    await api.waitFor(() => client.connected && received.length === 2, 'reconnection');
    // Equal jitter with random 0: at least half the 40 ms base.
    expect(Date.now() - droppedAt).toBeGreaterThanOrEqual(15);
    await api.waitFor(() => received[1]?.length === 1, 'second hello');
    expect(received[1]?.[0]).toMatchObject({ type: 'hello', uuid });
    expect(changes).toEqual([true, false, true]);
    expect(client.connections).toBe(2);
  });

  it('waits the longest backoff when the server refuses the device with a 44xx close', async () => {
    start();
    await api.waitFor(() => client.connected, 'first connection');
    api.sockets[0]?.close(4404, 'device deleted');
    await api.waitFor(() => !client.connected, 'the close');
    const closedAt = Date.now();
    await api.waitFor(() => client.connections === 2, 'reconnection');
    expect(Date.now() - closedAt).toBeGreaterThanOrEqual(190);
  });

  it('keeps retrying when the upgrade is refused, then connects', async () => {
    api.cloudlinkRefusal = 401;
    start();
    await api.waitFor(() => api.upgrades >= 3, 'repeated attempts');
    expect(client.connected).toBe(false);
    api.cloudlinkRefusal = null;
    await api.waitFor(() => client.connected, 'connection after refusals');
  });

  it('replaces a link whose server stopped answering pings', async () => {
    start({ pingIntervalMs: 50 });
    await api.waitFor(() => client.connected, 'first connection');
    // A half-open link: the server's socket stops reading, so our pings go unanswered.
    api.sockets[0]?.pause();
    await api.waitFor(() => client.connections === 2, 'a fresh connection', 2000);
  });
});
