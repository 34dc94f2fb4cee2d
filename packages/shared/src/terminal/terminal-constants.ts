// Constants of the web terminal's protocol (terminal-protocol.ts), kept free of zod so that the
// console's terminal chunk does not carry it (zod probes eval, which the console's CSP blocks).

export const terminalPath = '/terminal/v1';

// Output bytes the device sends ahead of the browser's acknowledgements.
export const terminalWindowBytes = 256 * 1024;
// The browser acknowledges in steps of this many bytes (or when its output queue drains).
export const terminalAckStepBytes = 32 * 1024;
// Largest keystroke frame (a paste); bigger ones end the session.
export const maxTerminalInputBytes = 64 * 1024;

// Websocket close codes of a terminal session.
export const terminalCloseCodes = {
  // The shell exited: the session is over, nothing to reconnect.
  exited: 1000,
  // The device or its link went away: the browser may try again.
  disconnected: 4100,
  // Refused before it started: do not retry.
  refused: 4403,
} as const;
