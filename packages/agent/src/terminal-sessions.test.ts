import { terminalWindowBytes } from '@flotilla/shared/terminal/terminal-constants';
import {
  type DeviceMessage,
  readTerminalFrame,
  terminalFrame,
} from '@flotilla/shared/cloudlink/messages';
import { describe, expect, it } from 'vitest';
import type { Shell, ShellIo } from './runtime/shell.js';
import { openSimulatedHostShell } from './runtime/simulated-terminal.js';
import { TerminalSessions } from './terminal-sessions.js';

const link = () => {
  const sent: DeviceMessage[] = [];
  const frames: { session: number; text: string; bytes: number }[] = [];
  return {
    sent,
    frames,
    send: (message: DeviceMessage) => sent.push(message),
    sendBinary(data: Uint8Array) {
      const frame = readTerminalFrame(data);
      if (!frame) throw new Error('not a terminal frame');
      frames.push({
        session: frame.session,
        text: new TextDecoder().decode(frame.data),
        bytes: frame.data.byteLength,
      });
    },
  };
};

// A shell the test drives by hand; it records what the sessions do to it.
const manualShell = () => {
  const calls: string[] = [];
  let io: ShellIo | undefined;
  const shell: Shell = {
    input: (data) => calls.push(`input:${new TextDecoder().decode(data)}`),
    resize: (size) => calls.push(`resize:${size.cols}x${size.rows}`),
    pause: () => calls.push('pause'),
    resume: () => calls.push('resume'),
    kill: () => calls.push('kill'),
  };
  return {
    calls,
    io: () => {
      if (!io) throw new Error('not opened');
      return io;
    },
    open: (_target: unknown, _size: unknown, given: ShellIo) => {
      io = given;
      return shell;
    },
  };
};

const open = (session: number) => ({
  type: 'terminal-open',
  session,
  target: { kind: 'host' },
  cols: 80,
  rows: 24,
});

describe('terminal sessions on the device', () => {
  it('pauses a shell a window ahead of the acknowledgements and resumes it after', () => {
    const shell = manualShell();
    const sessions = new TerminalSessions(shell.open);
    const wire = link();
    sessions.attach(wire);
    sessions.handle(open(1));
    expect(wire.sent).toEqual([{ type: 'terminal-opened', session: 1 }]);
    const chunk = new Uint8Array(64 * 1024);
    for (let sent = 0; sent < terminalWindowBytes; sent += chunk.byteLength) {
      shell.io().output(chunk);
    }
    expect(shell.calls).toEqual(['pause']);
    sessions.handle({ type: 'terminal-ack', session: 1, bytes: chunk.byteLength });
    expect(shell.calls).toEqual(['pause', 'resume']);
    sessions.frame(terminalFrame(1, new TextEncoder().encode('ls\n')));
    sessions.handle({ type: 'terminal-resize', session: 1, cols: 100, rows: 30 });
    sessions.handle({ type: 'terminal-close', session: 1 });
    expect(shell.calls).toEqual(['pause', 'resume', 'input:ls\n', 'resize:100x30', 'kill']);
  });

  it('kills every shell when the link goes, and ignores malformed messages', () => {
    const shell = manualShell();
    const sessions = new TerminalSessions(shell.open);
    sessions.attach(link());
    expect(sessions.handle({ type: 'terminal-open', session: -1 })).toBe(true);
    expect(sessions.count).toBe(0);
    sessions.handle(open(2));
    sessions.attach(undefined);
    expect(shell.calls).toEqual(['kill']);
    expect(sessions.count).toBe(0);
  });

  it('answers with the simulated shell, and tells why a shell could not open', async () => {
    const state = () => ({
      hostname: 'sim-1',
      deviceType: 'raspberrypi4-64',
      osVersion: 'balenaOS 5.1.0',
      uptimeMs: 60_000,
      storageUsedMb: 100,
      storageTotalMb: 1000,
      services: [{ name: 'main', status: 'Stopped' }],
    });
    // As a simulated device answers for a service whose container does not run.
    const sessions = new TerminalSessions((target, _size, io) =>
      target.kind === 'host'
        ? openSimulatedHostShell(state, io)
        : { error: `Service '${target.service}' is not running` },
    );
    const wire = link();
    sessions.attach(wire);
    sessions.handle({ ...open(3), target: { kind: 'service', service: 'main' } });
    expect(wire.sent).toEqual([
      { type: 'terminal-failed', session: 3, message: "Service 'main' is not running" },
    ]);
    sessions.handle(open(4));
    await Promise.resolve();
    sessions.frame(terminalFrame(4, new TextEncoder().encode('uname -a\r')));
    sessions.frame(terminalFrame(4, new TextEncoder().encode('exit\r')));
    const text = wire.frames.map((frame) => frame.text).join('');
    expect(text).toContain('Linux sim-1 6.1.77');
    expect(wire.sent.at(-1)).toEqual({ type: 'terminal-exit', session: 4, code: 0 });
    expect(sessions.count).toBe(0);
  });
});
