import { deviceActions } from '@flotilla/shared/cloudlink/messages';
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

const busMessage = z.discriminatedUnion('kind', [requestMessage, replyMessage, evictMessage]);

export type BusRequest = z.infer<typeof requestMessage>;
export type BusReply = z.infer<typeof replyMessage>;
export type BusOutcome = z.infer<typeof outcome>;
export type BusEvict = z.infer<typeof evictMessage>;
export type BusMessage = z.infer<typeof busMessage>;

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
