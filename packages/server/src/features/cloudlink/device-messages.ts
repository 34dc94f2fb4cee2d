import type { DeviceMessage } from '@flotilla/shared/cloudlink/messages';
import { z } from 'zod';

const resultMessage = z.object({
  type: z.literal('result'),
  id: z.string().min(1).max(100),
  // Passed through as the HTTP status of /supervisor/* answers, so no 1xx.
  status: z.number().int().min(200).max(599),
  body: z.unknown(),
});

const helloMessage = z.object({
  type: z.literal('hello'),
  uuid: z.string().max(100),
  agentVersion: z.string().max(100),
  hostOsUpdates: z.boolean().optional(),
});

const session = z.number().int().min(0).max(0xffff_ffff);

const terminalOpened = z.object({ type: z.literal('terminal-opened'), session });
const terminalFailed = z.object({
  type: z.literal('terminal-failed'),
  session,
  message: z.string().max(1_000),
});
const terminalExit = z.object({
  type: z.literal('terminal-exit'),
  session,
  code: z.number().int().nullable(),
});

const deviceMessage = z.discriminatedUnion('type', [
  resultMessage,
  helloMessage,
  terminalOpened,
  terminalFailed,
  terminalExit,
]);

// One frame from a device, or undefined when it is not a message this server understands (bad
// JSON, an unknown type from a newer agent): such frames are ignored, never fatal.
export const parseDeviceMessage = (data: string): DeviceMessage | undefined => {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return undefined;
  }
  const parsed = deviceMessage.safeParse(value);
  return parsed.success ? parsed.data : undefined;
};
