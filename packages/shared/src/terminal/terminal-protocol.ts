import { z } from 'zod';

// The web terminal. One websocket per session between the browser
// and the server (GET /terminal/v1), whose frames are relayed to the device over its cloudlink
// (shared/cloudlink/messages.ts). Text frames are JSON control messages, binary frames the
// terminal's bytes (keystrokes up, output down).
//
// Output is flow-controlled end to end: the device stops reading its shell's output once
// `terminalWindowBytes` are unacknowledged, and the browser acknowledges what its terminal has
// drawn. A fast producer (a `cat` of a large file) then runs at the pace of the slowest reader,
// and no hop in between holds more than the window.

// The path, window sizes and close codes are in terminal-constants.ts (no zod: the console's
// lazily loaded terminal imports them).

const dimension = z.number().int().min(1).max(1000);

export const terminalTarget = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('host') }),
  z.object({ kind: z.literal('service'), service: z.string().min(1).max(255) }),
]);
export type TerminalTarget = z.infer<typeof terminalTarget>;

export const terminalSize = z.object({ cols: dimension, rows: dimension });
export type TerminalSize = z.infer<typeof terminalSize>;

// Browser → server. `start` is the first message: the session token or API key (browsers cannot
// set headers on a websocket, and a URL would carry it into logs), the device and the target.
export const terminalClientMessage = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('start'),
    token: z.string().min(1).max(10_000),
    uuid: z.string().min(1).max(100),
    target: terminalTarget,
    cols: dimension,
    rows: dimension,
  }),
  z.object({ type: z.literal('resize'), cols: dimension, rows: dimension }),
  z.object({
    type: z.literal('ack'),
    bytes: z
      .number()
      .int()
      .min(1)
      .max(1 << 30),
  }),
]);
export type TerminalClientMessage = z.infer<typeof terminalClientMessage>;

// Server → browser, in the order a session goes through them: authenticated, connecting (the
// device is being asked), spawning (the device starts the shell), ready; then output until exit
// (the shell ended) or disconnect (the device, its link or the server went away). `refused`
// ends a session that cannot start: unauthorized, device offline, service not running...
export type TerminalServerMessage =
  | { type: 'authenticated' }
  | { type: 'connecting' }
  | { type: 'spawning' }
  | { type: 'ready' }
  | { type: 'exit'; code: number | null }
  | { type: 'disconnect'; message: string }
  | { type: 'refused'; reason: TerminalRefusal; message: string };

export type TerminalRefusal = 'unauthorized' | 'unavailable' | 'invalid';

export const parseTerminalClientMessage = (text: string): TerminalClientMessage | undefined => {
  try {
    const parsed = terminalClientMessage.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
};

export const targetLabel = (target: TerminalTarget): string =>
  target.kind === 'host' ? 'Host OS' : target.service;
