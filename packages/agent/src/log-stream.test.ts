import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Logger, silentLogger } from './logger.js';
import { LogStream, type LogStreamOptions } from './log-stream.js';
import { Scheduler } from './scheduler.js';
import { FakeApi } from './test-support/fake-api.js';
import { ManualClock } from './test-support/manual-clock.js';

const uuid = 'e'.repeat(32);

// Time only moves when a test advances the manual clock (flushes, cooldowns, the confirmation
// window, the idle close); the tests wait only for the network.
describe('LogStream', () => {
  let api: FakeApi;
  let clock: ManualClock;
  let scheduler: Scheduler;
  let stream: LogStream;
  let warnings: string[];
  const logger: Logger = { ...silentLogger, warn: (message) => warnings.push(message) };

  const open = (options: Partial<LogStreamOptions> = {}): LogStream => {
    stream = new LogStream({
      baseUrl: api.url,
      uuid,
      deviceApiKey: 'device-key',
      scheduler,
      random: () => 0,
      logger,
      flushDelayMs: 5,
      cooldownMs: 50,
      confirmAfterMs: 100,
      ...options,
    });
    return stream;
  };
  const line = (message: string) => ({ message, timestamp: clock.now(), isSystem: false });
  // Lines written while connecting go out once the connection is open, gzip-flushed after
  // flushDelayMs.
  const flushOnceOpen = async (): Promise<void> => {
    await api.waitFor(() => stream.connected, 'the log stream to open');
    clock.advance(5);
  };

  beforeEach(async () => {
    api = await new FakeApi().listen();
    clock = new ManualClock();
    scheduler = new Scheduler(clock);
    warnings = [];
  });
  afterEach(async () => {
    // close() gives the server 2 s to answer before it drops the request.
    const closing = stream.close();
    clock.advance(2000);
    await closing;
    scheduler.stop();
    await api.close();
  });

  it('streams gzip NDJSON lines on one long-lived request', async () => {
    open();
    stream.write({ message: 'hello', timestamp: 1, isStdErr: true, serviceId: 5 });
    stream.write(line('world'));
    await flushOnceOpen();
    await api.waitForLogLines(2);
    stream.write(line('again'));
    clock.advance(5);
    await api.waitForLogLines(3);
    expect(api.logStreams).toHaveLength(1);
    const request = api.requests[0];
    expect(request?.path).toBe(`/device/v2/${uuid}/log-stream`);
    expect(request?.headers).toMatchObject({
      authorization: 'Bearer device-key',
      'content-type': 'application/x-ndjson',
      'content-encoding': 'gzip',
    });
    expect(api.logLines[0]).toEqual({
      message: 'hello',
      timestamp: 1,
      isStdErr: true,
      serviceId: 5,
    });
    expect(api.logLines.map((entry) => entry.message)).toEqual(['hello', 'world', 'again']);
  });

  it('buffers while disconnected and delivers after the cooldown', async () => {
    open();
    stream.write(line('before'));
    await flushOnceOpen();
    await api.waitForLogLines(1);
    // Past the confirmation window, then the server drops the connection.
    clock.advance(100);
    api.logStreams[0]?.socket.destroy();
    await api.waitFor(() => !stream.connected, 'the disconnect');
    stream.write(line('while down 1'));
    stream.write(line('while down 2'));
    expect(stream.buffered).toBe(2);
    // The cooldown: nothing is opened before it is over.
    clock.advance(49);
    expect(clock.nextDueIn()).toBe(1);
    clock.advance(1);
    await flushOnceOpen();
    await api.waitForLogLines(3);
    expect(api.logStreams).toHaveLength(2);
    expect(api.logLines.map((entry) => entry.message)).toEqual([
      'before',
      'while down 1',
      'while down 2',
    ]);
  });

  it('drops the oldest lines beyond the buffer bound and says so', async () => {
    api.logStreamRefusal = 503;
    open({ maxBufferedLines: 3 });
    for (let index = 1; index <= 5; index++) stream.write(line(`line ${index}`));
    await api.waitFor(() => warnings.includes('log stream refused with 503'), 'a refused stream');
    // The lines sent on the refused stream are back in the buffer.
    expect(stream.buffered).toBe(3);
    expect(stream.dropped).toBe(2);
    api.logStreamRefusal = null;
    clock.advance(50);
    await flushOnceOpen();
    await api.waitForLogLines(4);
    expect(api.logLines.map((entry) => entry.message)).toEqual([
      '2 log lines were dropped while the log stream was disconnected',
      'line 3',
      'line 4',
      'line 5',
    ]);
  });

  it('ends an idle request and opens a new one for the next line', async () => {
    open({ idleCloseMs: 100 });
    stream.write(line('first'));
    await flushOnceOpen();
    await api.waitForLogLines(1);
    clock.advance(95);
    await api.waitFor(() => api.logStreams[0]?.complete === true, 'the idle close');
    stream.write(line('second'));
    await api.waitFor(() => api.logStreams.length === 2, 'a new stream');
    await flushOnceOpen();
    await api.waitForLogLines(2);
    expect(api.logStreams).toHaveLength(2);
  });
});
