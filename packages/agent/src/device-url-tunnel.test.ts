import { createServer, type Server } from 'node:http';
import { terminalWindowBytes } from '@flotilla/shared/terminal/terminal-constants';
import {
  type DeviceMessage,
  readTerminalFrame,
  terminalFrame,
} from '@flotilla/shared/cloudlink/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTcpTunnel } from './runtime/stream-shell.js';
import { openSimulatedWeb } from './runtime/simulated-web.js';
import type { OpenTunnel } from './runtime/shell.js';
import { TerminalSessions } from './terminal-sessions.js';

// The agent's side of the public device URL: a `device-url` session is a byte stream to the
// device's web server, with the terminal's flow control.

type Received = { messages: DeviceMessage[]; bytes: Buffer[]; ended: Promise<void> };

const listen = (sessions: TerminalSessions): Received => {
  const received: Omit<Received, 'ended'> = { messages: [], bytes: [] };
  let ended: () => void = () => undefined;
  const done = new Promise<void>((resolve) => (ended = resolve));
  sessions.attach({
    send(message) {
      received.messages.push(message);
      if (message.type === 'terminal-exit' || message.type === 'terminal-failed') ended();
    },
    sendBinary(data) {
      const frame = readTerminalFrame(data);
      if (!frame) throw new Error('not a frame');
      received.bytes.push(Buffer.from(frame.data));
    },
  });
  return { ...received, ended: done };
};

const openTunnel = (sessions: TerminalSessions, session: number, request: string): void => {
  sessions.handle({
    type: 'terminal-open',
    session,
    target: { kind: 'device-url' },
    cols: 80,
    rows: 24,
  });
  sessions.frame(terminalFrame(session, new TextEncoder().encode(request)));
};

const get = (path: string): string =>
  `GET ${path} HTTP/1.1\r\nHost: d.localhost\r\nConnection: close\r\n\r\n`;

let server: Server;
let port = 0;
beforeAll(async () => {
  server = createServer((request, response) => {
    if (request.url === '/big') {
      response.end(Buffer.alloc(2 * terminalWindowBytes, 0x61));
      return;
    }
    response.end(`local ${request.method ?? ''} ${request.url ?? ''}`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  port = address.port;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

const tcp: OpenTunnel = (io) => openTcpTunnel(port, io);

describe('device URL tunnels in the agent', () => {
  it('proxies a request to the configured local port and ends with the connection', async () => {
    const sessions = new TerminalSessions(undefined, tcp);
    const received = listen(sessions);
    openTunnel(sessions, 7, get('/hello'));
    await received.ended;
    const answer = Buffer.concat(received.bytes).toString();
    expect(answer).toMatch(/^HTTP\/1\.1 200 OK/);
    expect(answer.endsWith('local GET /hello')).toBe(true);
    expect(received.messages).toEqual([
      { type: 'terminal-opened', session: 7 },
      { type: 'terminal-exit', session: 7, code: null },
    ]);
  });

  it('stops reading a window ahead of the acknowledgements', async () => {
    const sessions = new TerminalSessions(undefined, tcp);
    const received = listen(sessions);
    openTunnel(sessions, 1, get('/big'));
    const total = (): number => received.bytes.reduce((sum, chunk) => sum + chunk.byteLength, 0);
    // Without acknowledgements the answer stops at the window (plus one read's worth).
    await expect.poll(total).toBeGreaterThanOrEqual(terminalWindowBytes);
    const stalled = total();
    expect(stalled).toBeLessThan(terminalWindowBytes + 65_536);
    while (received.messages.at(-1)?.type !== 'terminal-exit') {
      const before = total();
      sessions.handle({ type: 'terminal-ack', session: 1, bytes: total() });
      await expect.poll(() => total() > before || received.messages.length > 1).toBe(true);
    }
    expect(total()).toBeGreaterThan(2 * terminalWindowBytes);
  });

  it('ends at once when nothing listens on the port', async () => {
    const sessions = new TerminalSessions(undefined, (io) => openTcpTunnel(1, io));
    const received = listen(sessions);
    openTunnel(sessions, 2, get('/'));
    await received.ended;
    expect(received.bytes).toEqual([]);
    expect(received.messages.at(-1)).toEqual({ type: 'terminal-exit', session: 2, code: null });
  });

  it('refuses the tunnel when the agent serves no device URL', () => {
    const sessions = new TerminalSessions(undefined);
    const received = listen(sessions);
    openTunnel(sessions, 3, get('/'));
    expect(received.messages).toEqual([
      { type: 'terminal-failed', session: 3, message: 'This agent serves no public device URL' },
    ]);
  });

  it('serves the simulator’s status page of the device', async () => {
    const sessions = new TerminalSessions(undefined, (io) =>
      openSimulatedWeb(
        () => ({
          name: 'sim-<1>',
          uuid: 'abc123',
          deviceType: 'raspberrypi4-64',
          release: 'f00d',
          uptimeMs: 3_723_000,
        }),
        io,
      ),
    );
    const received = listen(sessions);
    openTunnel(sessions, 4, get('/'));
    await received.ended;
    const page = Buffer.concat(received.bytes).toString();
    expect(page).toMatch(/^HTTP\/1\.1 200 OK/);
    expect(page).toContain('<h1>sim-&#60;1&#62;</h1>');
    for (const text of ['abc123', 'raspberrypi4-64', 'f00d', '1h 2m 3s']) {
      expect(page).toContain(text);
    }
  });
});
