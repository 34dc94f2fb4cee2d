import { z } from 'zod';

// Every event Flotilla tells the outside of (webhooks, docs/EVENTS.md): its name, the version of
// its data's shape, and that shape. A change that breaks a shape is a new version, never an edit.

const deviceRef = {
  device: z.number().int(),
  uuid: z.string(),
  deviceName: z.string(),
  fleet: z.number().int(),
};

const releaseData = z.object({
  release: z.number().int(),
  commit: z.string(),
  fleet: z.number().int(),
  status: z.string(),
  source: z.string(),
});

const memberData = z.object({
  user: z.number().int(),
  username: z.string().nullable(),
  role: z.string().nullable(),
  // Set for a fleet membership; null for an organization membership.
  fleet: z.number().int().nullable(),
});

const keyData = z.object({
  key: z.number().int(),
  name: z.string().nullable(),
  kind: z.enum(['provisioning', 'device']),
  fleet: z.number().int(),
  device: z.number().int().nullable(),
});

const alertData = z.object({
  ...deviceRef,
  alert: z.number().int(),
  rule: z.number().int(),
  ruleName: z.string(),
  condition: z.string(),
  // What the sweep saw, for people ("Offline since 10:02 UTC").
  detail: z.string(),
  // The rule was silenced at that moment: its mails were held back.
  silenced: z.boolean(),
  startedAt: z.string(),
  resolvedAt: z.string().nullable(),
});

export const eventCatalogue = {
  'device.online': { version: 1, data: z.object(deviceRef) },
  'device.offline': { version: 1, data: z.object(deviceRef) },
  'device.overall_status_changed': {
    version: 1,
    data: z.object({ ...deviceRef, previous: z.string(), current: z.string() }),
  },
  'device.update_status_changed': {
    version: 1,
    data: z.object({
      ...deviceRef,
      previous: z.string().nullable(),
      current: z.string().nullable(),
    }),
  },
  'release.created': { version: 1, data: releaseData },
  'release.succeeded': { version: 1, data: releaseData },
  'release.failed': { version: 1, data: releaseData },
  'variable.changed': {
    version: 1,
    data: z.object({
      // The variable's table, e.g. application_environment_variable; never its value.
      table: z.string(),
      name: z.string(),
      fleet: z.number().int().nullable(),
      device: z.number().int().nullable(),
      change: z.enum(['created', 'updated', 'deleted']),
    }),
  },
  'member.added': { version: 1, data: memberData },
  'member.removed': { version: 1, data: memberData },
  'key.created': { version: 1, data: keyData },
  'key.revoked': { version: 1, data: keyData },
  'alert.fired': { version: 1, data: alertData },
  'alert.resolved': { version: 1, data: alertData },
} as const;

export type EventType = keyof typeof eventCatalogue;

export const eventTypes = Object.keys(eventCatalogue).filter(
  (name): name is EventType => name in eventCatalogue,
);

// Names kept for events of features to come (rollouts): not subscribable yet.
export const reservedEventTypes = [
  'rollout.wave_started',
  'rollout.wave_halted',
  'rollout.finished',
] as const;

export const isEventType = (name: string): name is EventType => name in eventCatalogue;

// The envelope every delivery's body is.
export const eventEnvelope = z.object({
  id: z.string(),
  type: z.string(),
  version: z.number().int(),
  occurredAt: z.string(),
  organization: z.number().int(),
  fleet: z.number().int().nullable(),
  device: z.number().int().nullable(),
  data: z.record(z.string(), z.unknown()),
});

export type EventEnvelope = z.infer<typeof eventEnvelope>;

// The JSON Schema of an event's whole envelope, for receivers that validate what they get.
export const eventJsonSchema = (type: EventType): object =>
  z.toJSONSchema(
    eventEnvelope.extend({
      type: z.literal(type),
      version: z.literal(eventCatalogue[type].version),
      data: eventCatalogue[type].data,
    }),
  );
