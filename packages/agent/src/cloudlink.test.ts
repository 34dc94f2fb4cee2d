import type { ActionRequest, ActionResult, Hello } from '@flotilla/shared/cloudlink/messages';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { CloudlinkClient, type CloudlinkOptions } from './cloudlink.js';
import { silentLogger } from './logger.js';
import { Scheduler } from './scheduler.js';
import { FakeApi } from './test-support/fake-api.js';
import { ManualClock } from './test-support/manual-clock.js';

const uuid = 'f'.repeat(32);

type Message = ActionResult | Hello;

const messages = (socket: WebSocket): Message[] => {
  const received: Message[] = [];
  socket.on('message', (data) => received.push(JSON.parse(String(data)) as Message));
  return received;
};

// Time only moves when a test advances the manual clock: backoffs and ping intervals are exact,
// and only the network is waited for.
describe('CloudlinkClient', () => {
  let api: FakeApi;
  let clock: ManualClock;
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
    clock = new ManualClock();
    scheduler = new Scheduler(clock);
    received = [];
    headers = [];
    api.wss.on('connection', (socket, request) => {
      received.push(messages(socket));
      headers.push(request.headers);
    });
  });
  afterEach(async () => {
    // stop() gives a peer 2 s to complete the closing handshake; a paused one never does.
    const stopping = client.stop();
    clock.advance(2000);
    await stopping;
    scheduler.stop();
    await api.close();
  });

  it('polls at once when the server says the target changed, and answers nothing', async () => {
    let told = 0;
    start({ onTargetChanged: () => (told += 1) });
    await api.waitFor(() => received[0]?.length === 1, 'hello');
    api.sockets[0]?.send(JSON.stringify({ type: 'target-changed' }));
    // An action after it: once its result is back, the notice before it was handled.
    send(0, { id: 'after', action: 'ping', params: {} });
    await api.waitFor(() => received[0]?.length === 2, 'the result');
    expect(told).toBe(1);
    expect(received[0]?.[1]).toMatchObject({ type: 'result', id: 'after' });
  });

  it('tells in its hello whether the host runs OS updates, when it is told', async () => {
    start({ hostOsUpdates: false });
    await api.waitFor(() => received[0]?.length === 1, 'hello');
    expect(received[0]?.[0]).toEqual({
      type: 'hello',
      uuid,
      agentVersion: expect.any(String),
      hostOsUpdates: false,
    });
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
    // Equal jitter with random 0: half the 40 ms base.
    clock.advance(19);
    expect(clock.nextDueIn()).toBe(1);
    clock.advance(1);
    await api.waitFor(() => client.connected && received.length === 2, 'reconnection');
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
    // Not the first backoff step (20 ms) but the longest, 200 ms.
    clock.advance(199);
    expect(clock.nextDueIn()).toBe(1);
    clock.advance(1);
    await api.waitFor(() => client.connections === 2, 'reconnection');
  });

  it('keeps retrying when the upgrade is refused, then connects', async () => {
    api.cloudlinkRefusal = 401;
    start();
    for (let attempt = 1; attempt <= 3; attempt++) {
      await api.waitFor(() => clock.pending === 1, `refusal ${attempt} and its retry timer`);
      expect(api.upgrades).toBe(attempt);
      expect(client.connected).toBe(false);
      clock.advance(200);
    }
    await api.waitFor(() => clock.pending === 1, 'refusal 4 and its retry timer');
    api.cloudlinkRefusal = null;
    clock.advance(200);
    await api.waitFor(() => client.connected, 'connection after refusals');
    expect(api.upgrades).toBe(5);
  });

  it('replaces a link whose server stopped answering pings', async () => {
    start({ pingIntervalMs: 50 });
    await api.waitFor(() => client.connected, 'first connection');
    // A half-open link: the server's socket stops reading, so our pings go unanswered.
    api.sockets[0]?.pause();
    clock.advance(50);
    expect(client.connected).toBe(true);
    // A whole interval without an answer: the link is given up and a new one opened.
    clock.advance(50);
    expect(client.connected).toBe(false);
    clock.advance(20);
    await api.waitFor(() => client.connections === 2, 'a fresh connection');
  });
});
