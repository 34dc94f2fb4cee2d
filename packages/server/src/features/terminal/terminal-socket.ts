import {
  maxTerminalInputBytes,
  terminalCloseCodes,
} from '@flotilla/shared/terminal/terminal-constants';
import {
  parseTerminalClientMessage,
  type TerminalClientMessage,
  type TerminalRefusal,
  type TerminalServerMessage,
} from '@flotilla/shared/terminal/terminal-protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { TerminalSessionEvent } from '../audit-log/audit-events.js';
import type { RawData, WebSocket } from 'ws';
import { CloudlinkError } from '../cloudlink/cloudlink-error.js';
import type { TerminalEvents, TerminalPeer } from '../cloudlink/terminal-stream.js';
import { targetLabel } from '@flotilla/shared/terminal/terminal-protocol';
import type { TerminalAccess } from './terminal-access.js';

// How long a browser may take to send its start message.
export const startTimeoutMs = 10_000;

export type TerminalStart = Extract<TerminalClientMessage, { type: 'start' }>;

export type TerminalSocketDeps = {
  // The device id when the start's credentials may open its target, or why not.
  authorize(start: TerminalStart): Promise<TerminalAccess>;
  open(deviceId: number, start: TerminalStart, events: TerminalEvents): Promise<TerminalPeer>;
  log: FastifyBaseLogger;
  // Told when a session opens and closes (the audit log).
  sessions?: (session: TerminalSessionEvent) => void;
};

const offlineMessage = 'The device is not connected to the cloud';

// One browser's terminal session: waits for `start`, checks it, opens the shell through the
// cloudlink and relays both ways until either side ends. Whatever ends first (the browser's
// socket, the shell, the device) ends the other, so no shell outlives its terminal.
export const runTerminalSocket = (socket: WebSocket, deps: TerminalSocketDeps): void => {
  let state: 'waiting' | 'starting' | 'open' | 'ended' = 'waiting';
  let peer: TerminalPeer | undefined;
  // Set once a session opens: the operator's log says who had a shell on which device, and when.
  let opened: { fields: Record<string, unknown>; at: number } | undefined;
  let session: Omit<TerminalSessionEvent, 'event'> | undefined;

  const send = (message: TerminalServerMessage): void => {
    if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
  };
  const end = (code: number, last: TerminalServerMessage): void => {
    if (state === 'ended') return;
    state = 'ended';
    clearTimeout(startTimer);
    send(last);
    if (socket.readyState === socket.OPEN) socket.close(code);
  };
  const refuse = (reason: TerminalRefusal, message: string): void =>
    end(terminalCloseCodes.refused, { type: 'refused', reason, message });

  const startTimer = setTimeout(
    () => refuse('invalid', 'No start message'),
    startTimeoutMs,
  ).unref();

  const events: TerminalEvents = {
    opened: () => send({ type: 'ready' }),
    output(data) {
      if (socket.readyState === socket.OPEN) socket.send(data, { binary: true });
    },
    failed: (message) => refuse('unavailable', message),
    exit: (code) => end(terminalCloseCodes.exited, { type: 'exit', code }),
    disconnected: (message) =>
      end(terminalCloseCodes.disconnected, { type: 'disconnect', message }),
  };

  const start = async (message: TerminalStart): Promise<void> => {
    state = 'starting';
    clearTimeout(startTimer);
    const access = await deps.authorize(message);
    if (state !== 'starting') return;
    const who = {
      device: message.uuid,
      target: targetLabel(message.target),
    };
    if ('refused' in access) {
      deps.log.info({ ...who, reason: access.refused }, 'terminal: session refused');
      refuse('unauthorized', access.refused);
      return;
    }
    const { deviceId } = access;
    send({ type: 'authenticated' });
    send({ type: 'connecting' });
    let shell: TerminalPeer;
    try {
      shell = await deps.open(deviceId, message, events);
    } catch (error) {
      if (!(error instanceof CloudlinkError)) throw error;
      refuse('unavailable', offlineMessage);
      return;
    }
    // The browser left (or the device answered) while the session was being opened.
    if (state !== 'starting') {
      shell.close();
      return;
    }
    state = 'open';
    peer = shell;
    const fields = {
      ...who,
      userId: access.userId,
      ...(access.actualUserId === undefined ? {} : { actualUser: access.actualUserId }),
    };
    opened = { fields, at: Date.now() };
    deps.log.info(fields, 'terminal: session opened');
    session = {
      deviceId,
      userId: access.userId,
      actualUserId: access.actualUserId,
      target: who.target,
    };
    deps.sessions?.({ event: 'opened', ...session });
    send({ type: 'spawning' });
  };

  const receive = (data: RawData, isBinary: boolean): void => {
    if (isBinary) {
      if (!Buffer.isBuffer(data)) return;
      if (data.byteLength > maxTerminalInputBytes) {
        refuse('invalid', `Input frames are limited to ${maxTerminalInputBytes} bytes`);
        return;
      }
      peer?.input(data);
      return;
    }
    const message = parseTerminalClientMessage(data.toString());
    if (!message) {
      refuse('invalid', 'Unreadable terminal message');
      return;
    }
    if (message.type === 'start') {
      if (state !== 'waiting') {
        refuse('invalid', 'The session has already started');
        return;
      }
      start(message).catch((error: unknown) => {
        deps.log.error({ err: error }, 'terminal: could not start a session');
        refuse('unavailable', 'The terminal could not be started');
      });
      return;
    }
    if (message.type === 'resize') peer?.resize({ cols: message.cols, rows: message.rows });
    else peer?.ack(message.bytes);
  };

  socket.on('message', receive);
  socket.on('close', () => {
    clearTimeout(startTimer);
    if (opened !== undefined) {
      const seconds = Math.round((Date.now() - opened.at) / 1000);
      deps.log.info({ ...opened.fields, seconds }, 'terminal: session ended');
      if (session) deps.sessions?.({ event: 'closed', ...session, seconds });
      opened = undefined;
    }
    state = 'ended';
    peer?.close();
    peer = undefined;
  });
};
