import {
  terminalAckStepBytes,
  terminalCloseCodes,
} from '@flotilla/shared/terminal/terminal-constants';
import { describe, expect, it } from 'vitest';
import {
  TerminalConnection,
  type TerminalSocket,
  type TerminalState,
} from './terminal-connection.js';

// A strict fake socket: records what is sent, and the test plays the server.
class FakeSocket implements TerminalSocket {
  binaryType: BinaryType = 'blob';
  readyState = 0;
  sent: (string | Uint8Array)[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose: ((event: { code: number }) => void) | null = null;

  send(data: string | Uint8Array): void {
    if (this.readyState !== 1) throw new Error('send on a socket that is not open');
    this.sent.push(data);
  }
  close(): void {
    this.readyState = 3;
  }
  open(): void {
    this.readyState = 1;
    this.onopen?.();
  }
  server(message: object): void {
    this.onmessage?.({ data: JSON.stringify(message) });
  }
  drop(code: number): void {
    this.readyState = 3;
    this.onclose?.({ code });
  }
}

const drawAtOnce = (_data: Uint8Array, done: () => void): void => done();

const setup = (onOutput: (data: Uint8Array, done: () => void) => void = drawAtOnce) => {
  const sockets: FakeSocket[] = [];
  const timers: { callback: () => void; ms: number }[] = [];
  const states: string[] = [];
  const drawn: Uint8Array[] = [];
  const connection = new TerminalConnection({
    url: 'ws://console/terminal/v1',
    token: () => 'session-token',
    uuid: 'abc',
    target: { kind: 'host' },
    size: () => ({ cols: 80, rows: 24 }),
    createSocket: (url) => {
      if (url !== 'ws://console/terminal/v1') throw new Error(`unexpected url ${url}`);
      const socket = new FakeSocket();
      sockets.push(socket);
      return socket;
    },
    timers: {
      setTimeout: (callback, ms) => timers.push({ callback, ms }),
      clearTimeout: () => undefined,
    },
    onState: (state: TerminalState, message?: string) =>
      states.push(message ? `${state}: ${message}` : state),
    onOutput: (data, done) => {
      drawn.push(data);
      onOutput(data, done);
    },
  });
  const last = (): FakeSocket => {
    const socket = sockets.at(-1);
    if (!socket) throw new Error('no socket');
    return socket;
  };
  return { connection, sockets, timers, states, drawn, last };
};

describe('terminal connection', () => {
  it('starts a session, goes through its states, acknowledges drawn output, resizes', () => {
    const { connection, states, drawn, last } = setup();
    connection.start();
    last().open();
    expect(JSON.parse(String(last().sent[0]))).toEqual({
      type: 'start',
      token: 'session-token',
      uuid: 'abc',
      target: { kind: 'host' },
      cols: 80,
      rows: 24,
    });
    last().server({ type: 'authenticated' });
    last().server({ type: 'spawning' });
    last().server({ type: 'ready' });
    last().onmessage?.({ data: new Uint8Array([104, 105]).buffer });
    expect(drawn).toEqual([new Uint8Array([104, 105])]);
    connection.resize({ cols: 100, rows: 30 });
    expect(last().sent.slice(1)).toEqual([
      JSON.stringify({ type: 'ack', bytes: 2 }),
      JSON.stringify({ type: 'resize', cols: 100, rows: 30 }),
    ]);
    expect(states).toEqual(['spawning', 'connected']);
    last().drop(terminalCloseCodes.exited);
    expect(states.at(-1)).toBe('exited');
  });

  it('reconnects 5 times 2 s apart when the device drops, then fails', () => {
    const { connection, timers, states, sockets, last } = setup();
    connection.start();
    last().open();
    last().server({ type: 'ready' });
    for (let attempt = 1; attempt <= 5; attempt++) {
      last().server({ type: 'disconnect', message: 'The device disconnected' });
      last().drop(terminalCloseCodes.disconnected);
      expect(timers.at(-1)?.ms).toBe(2000);
      timers.at(-1)?.callback();
      last().open();
    }
    last().drop(terminalCloseCodes.disconnected);
    expect(sockets).toHaveLength(6);
    expect(states.filter((state) => state.startsWith('reconnecting'))).toHaveLength(5);
    expect(states.at(-1)).toBe('failed: The terminal could not reconnect');
  });

  it('fails at once when refused, without retrying', () => {
    const { connection, timers, states, last } = setup();
    connection.start();
    last().open();
    last().server({
      type: 'refused',
      reason: 'unauthorized',
      message: 'You may not open this terminal',
    });
    last().drop(terminalCloseCodes.refused);
    expect(states).toEqual(['failed: You may not open this terminal']);
    expect(timers).toHaveLength(0);
  });
});

describe('terminal connection: flow control and restarts', () => {
  // Output the test draws when it decides (xterm draws asynchronously).
  const deferred = () => {
    const pending: (() => void)[] = [];
    const { connection, last, states } = setup((_data, done) => pending.push(done));
    return { connection, last, states, pending };
  };
  const acks = (socket: { sent: (string | Uint8Array)[] }): number[] =>
    socket.sent
      .filter((frame): frame is string => typeof frame === 'string')
      .map((frame) => JSON.parse(frame) as { type: string; bytes?: number })
      .filter((message) => message.type === 'ack')
      .map((message) => message.bytes ?? 0);

  it('acknowledges a burst in steps of terminalAckStepBytes, and the rest once all is drawn', () => {
    const { connection, last, pending } = deferred();
    connection.start();
    last().open();
    last().server({ type: 'ready' });
    const frame = new Uint8Array(10 * 1024);
    for (let index = 0; index < 7; index++) last().onmessage?.({ data: frame.slice().buffer });
    // Three frames drawn (30 KiB) while four more wait: below a step, nothing is acknowledged.
    for (const done of pending.splice(0, 3)) done();
    expect(acks(last())).toEqual([]);
    // The fourth crosses the step: one acknowledgement of all four.
    pending.shift()?.();
    expect(acks(last())).toEqual([4 * 10 * 1024]);
    expect(terminalAckStepBytes).toBe(32 * 1024);
    // The last three end the burst: what is left is acknowledged even below a step.
    for (const done of pending.splice(0)) done();
    expect(acks(last())).toEqual([4 * 10 * 1024, 3 * 10 * 1024]);
  });

  it('counts a frame once even if its drawn callback runs twice', () => {
    const { connection, last, pending } = deferred();
    connection.start();
    last().open();
    last().onmessage?.({ data: new Uint8Array(5).buffer });
    last().onmessage?.({ data: new Uint8Array(7).buffer });
    const first = pending[0];
    first?.();
    first?.();
    expect(acks(last())).toEqual([]);
    pending[1]?.();
    expect(acks(last())).toEqual([12]);
  });

  it('restart opens a fresh session at once, forgetting the old one', () => {
    const { connection, sockets, states, last } = setup();
    connection.start();
    last().open();
    last().server({ type: 'ready' });
    const old = last();
    connection.restart();
    expect(sockets).toHaveLength(2);
    expect(old.readyState).toBe(3);
    // The old socket's late close does not count as a drop.
    old.drop(terminalCloseCodes.disconnected);
    last().open();
    last().server({ type: 'ready' });
    expect(states).toEqual(['connected', 'connecting', 'connected']);
  });

  it('restart leaves a session whose shell exited, or a stopped one, alone', () => {
    const exited = setup();
    exited.connection.start();
    exited.last().open();
    exited.last().drop(terminalCloseCodes.exited);
    exited.connection.restart();
    expect(exited.sockets).toHaveLength(1);

    const stopped = setup();
    stopped.connection.start();
    stopped.connection.stop();
    stopped.connection.restart();
    expect(stopped.sockets).toHaveLength(1);
  });
});
