import { z } from 'zod';
import { terminalTarget } from '../terminal/terminal-protocol.js';

// What a stream over the cloudlink (a terminal-open, shared/cloudlink/messages.ts) connects to:
// a shell (the web terminal's targets), or the device's local web server, which answers the
// public device URL. For `device-url` the agent picks the port itself (its
// configuration), never the server, and ignores the size the message carries.
export const deviceUrlTarget = z.object({ kind: z.literal('device-url') });

export const streamTarget = z.union([terminalTarget, deviceUrlTarget]);
export type StreamTarget = z.infer<typeof streamTarget>;
