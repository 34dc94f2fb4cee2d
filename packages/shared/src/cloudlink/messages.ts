import type { TerminalSize } from '../terminal/terminal-protocol.js';
import type { StreamTarget } from './stream-target.js';

// The cloudlink: one websocket from each device agent to the server (GET /cloudlink/v1, Bearer
// device key), replacing balena's VPN for actions, diagnostics and the terminal. Text frames are
// one JSON object each; binary frames carry terminal bytes (terminalFrame below). Both ends
// ignore what they do not understand.

export const cloudlinkPath = '/cloudlink/v1';

// What the console and /supervisor/* routes can ask a device to do.
export const deviceActions = [
  'ping',
  'blink',
  'restart-services',
  'reboot',
  'shutdown',
  'purge',
  'update',
  'device-state',
  'start-service',
  'stop-service',
  'restart-service',
  // Health checks and the diagnostics report (shared/diagnostics/diagnostics.ts).
  'checks',
  'diagnose',
] as const;
export type DeviceAction = (typeof deviceActions)[number];

export type ActionParams = {
  // Skip update locks (reboot, shutdown, update, restart-services).
  force?: boolean;
  appId?: number;
  // The service an action on one service targets (by image id, as the supervisor API does, or name).
  imageId?: number;
  serviceName?: string;
  // checks: the server's clock when it sent the request (ms), for the clock-skew check.
  sentAt?: number;
};

// Server → device.
export type ActionRequest = {
  type: 'action';
  id: string;
  action: DeviceAction;
  params: ActionParams;
};

// Device → server: the answer to one request. `status` is HTTP-like: 200 done, 423 refused by an
// update lock (the SDK's BalenaSupervisorLockedError), 400 bad params, 500 failed.
export type ActionResult = {
  type: 'result';
  id: string;
  status: number;
  body: unknown;
};

// Device → server, once after connecting. `hostOsUpdates`: whether this host runs OS updates (a
// real host only when its operator enabled them); absent when the agent does not say (simulated
// devices, older agents), and then an OS update is sent and the device answers for itself.
export type Hello = {
  type: 'hello';
  uuid: string;
  agentVersion: string;
  hostOsUpdates?: boolean;
};

// Terminal sessions, numbered by the server per connection. Server → device: open a shell
// (spawned by the agent, which answers opened or failed), resize it, acknowledge output the
// browser has drawn (flow control, see terminal-protocol.ts), close it (kill the shell). The
// same session frames carry the public device URL's tunnels (target `device-url`, a byte
// stream to the device's local web server; see stream-target.ts).
export type TerminalOpen = {
  type: 'terminal-open';
  session: number;
  target: StreamTarget;
} & TerminalSize;
export type TerminalResize = { type: 'terminal-resize'; session: number } & TerminalSize;
export type TerminalAck = { type: 'terminal-ack'; session: number; bytes: number };
export type TerminalClose = { type: 'terminal-close'; session: number };

// Device → server: the shell runs, could not start, or ended (its exit code when known).
export type TerminalOpened = { type: 'terminal-opened'; session: number };
export type TerminalFailed = { type: 'terminal-failed'; session: number; message: string };
export type TerminalExit = { type: 'terminal-exit'; session: number; code: number | null };

// Server → device: what the device should run changed (a release, a variable, a pin...): poll
// the target state now instead of at the next interval. No answer; an agent that does not know
// it ignores it and gets the change at its next poll.
export type TargetChanged = { type: 'target-changed' };

export type ServerMessage =
  ActionRequest | TerminalOpen | TerminalResize | TerminalAck | TerminalClose | TargetChanged;
export type DeviceMessage = ActionResult | Hello | TerminalOpened | TerminalFailed | TerminalExit;

// A binary frame: the session number (4 bytes, big-endian), then the terminal's bytes.
export const terminalFrameHeaderBytes = 4;

export const terminalFrame = (session: number, data: Uint8Array): Uint8Array => {
  const frame = new Uint8Array(terminalFrameHeaderBytes + data.byteLength);
  new DataView(frame.buffer).setUint32(0, session);
  frame.set(data, terminalFrameHeaderBytes);
  return frame;
};

export const readTerminalFrame = (
  frame: Uint8Array,
): { session: number; data: Uint8Array } | undefined => {
  if (frame.byteLength < terminalFrameHeaderBytes) return undefined;
  const session = new DataView(frame.buffer, frame.byteOffset, frame.byteLength).getUint32(0);
  return { session, data: frame.subarray(terminalFrameHeaderBytes) };
};

export const isDeviceAction = (value: unknown): value is DeviceAction =>
  typeof value === 'string' && (deviceActions as readonly string[]).includes(value);
