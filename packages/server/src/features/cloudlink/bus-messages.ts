import { deviceActions } from '@flotilla/shared/cloudlink/messages';
import { streamTarget } from '@flotilla/shared/cloudlink/stream-target';
import { terminalSize } from '@flotilla/shared/terminal/terminal-protocol';
import { z } from 'zod';

// What server processes tell each other over NOTIFY (one channel per node). Payloads stay far
// below PostgreSQL's 8000-byte limit: large replies go through cloudlink_reply instead.

// Unknown params are kept, so a newer node's extra fields survive an older node in between.
const actionParams = z.looseObject({
  force: z.boolean().optional(),
  appId: z.number().int().optional(),
  imageId: z.number().int().optional(),
  serviceName: z.string().optional(),
});

// "Run this action on a device you hold and answer on my channel."
const requestMessage = z.object({
  kind: z.literal('request'),
  id: z.string().min(1).max(100),
  replyTo: z.string().min(1).max(40),
  deviceId: z.number().int(),
  action: z.enum(deviceActions),
  params: actionParams,
  timeoutMs: z.number().int().positive(),
});

const outcome = z.discriminatedUnion('type', [
  z.object({ type: z.literal('result'), status: z.number().int(), body: z.unknown() }),
  z.object({
    type: z.literal('failure'),
    failure: z.enum(['offline', 'timeout', 'disconnected']),
    message: z.string(),
  }),
  // The result is in cloudlink_reply under the request id.
  z.object({ type: z.literal('stored') }),
]);

const replyMessage = z.object({
  kind: z.literal('reply'),
  id: z.string().min(1).max(100),
  outcome,
});

// "Close your connection of this device: a newer one reached another node."
const evictMessage = z.object({
  kind: z.literal('evict'),
  deviceId: z.number().int(),
  connectionId: z.string().min(1).max(100),
});

// Terminal sessions whose browser and device are on different nodes (terminal-relay.ts). The
// session key is random per session; terminal bytes travel base64-encoded in chunks that keep
// the payload below maxNotifyBytes.
const sessionKey = z.string().min(1).max(100);
const base64Chunk = z.string().max(6_000);

// Browser's node → holder: open a shell on a device you hold, answer on my channel.
const terminalOpenMessage = z.object({
  kind: z.literal('terminal-open'),
  key: sessionKey,
  replyTo: z.string().min(1).max(40),
  deviceId: z.number().int(),
  target: streamTarget,
  ...terminalSize.shape,
});

// Browser's node → holder: keystrokes, a resize, acknowledged output, the end of the session.
const terminalInputMessage = z.object({
  kind: z.literal('terminal-input'),
  key: sessionKey,
  data: base64Chunk,
});
const terminalResizeMessage = z.object({
  kind: z.literal('terminal-resize'),
  key: sessionKey,
  ...terminalSize.shape,
});
const terminalAckMessage = z.object({
  kind: z.literal('terminal-ack'),
  key: sessionKey,
  bytes: z
    .number()
    .int()
    .min(1)
    .max(1 << 30),
});
const terminalCloseMessage = z.object({ kind: z.literal('terminal-close'), key: sessionKey });

const terminalEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('opened') }),
  z.object({ type: z.literal('failed'), message: z.string().max(1_000) }),
  z.object({ type: z.literal('output'), data: base64Chunk }),
  z.object({ type: z.literal('exit'), code: z.number().int().nullable() }),
  z.object({ type: z.literal('disconnected'), message: z.string().max(1_000) }),
]);

// Holder → browser's node: what the device's shell did.
const terminalEventMessage = z.object({
  kind: z.literal('terminal-event'),
  key: sessionKey,
  event: terminalEvent,
});

const busMessage = z.discriminatedUnion('kind', [
  requestMessage,
  replyMessage,
  evictMessage,
  terminalOpenMessage,
  terminalInputMessage,
  terminalResizeMessage,
  terminalAckMessage,
  terminalCloseMessage,
  terminalEventMessage,
]);

export type BusRequest = z.infer<typeof requestMessage>;
export type BusReply = z.infer<typeof replyMessage>;
export type BusOutcome = z.infer<typeof outcome>;
export type BusEvict = z.infer<typeof evictMessage>;
export type BusMessage = z.infer<typeof busMessage>;
export type BusTerminalOpen = z.infer<typeof terminalOpenMessage>;
export type BusTerminalEvent = z.infer<typeof terminalEvent>;
// Messages of one terminal session, from the browser's node to the holder.
export type BusTerminalControl =
  | z.infer<typeof terminalInputMessage>
  | z.infer<typeof terminalResizeMessage>
  | z.infer<typeof terminalAckMessage>
  | z.infer<typeof terminalCloseMessage>;

// A stored reply read back from cloudlink_reply.
export const storedResult = z.object({ status: z.number().int(), body: z.unknown() });

export const parseBusMessage = (payload: string | undefined): BusMessage | undefined => {
  if (payload === undefined) return undefined;
  try {
    const parsed = busMessage.safeParse(JSON.parse(payload));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
};
