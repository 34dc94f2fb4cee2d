import { terminalCloseCodes } from '@flotilla/shared/terminal/terminal-constants';
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

const setup = () => {
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
      done();
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
