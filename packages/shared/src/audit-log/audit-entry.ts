import { z } from 'zod';

// What the audit log records besides /v7 writes (create, update, delete of a resource's rows).
export const auditEvents = [
  'login',
  'login_failed',
  'login_as',
  // A change made through a route of its own (not /v7): its method, route and parameters.
  'request',
  'device_action',
  'terminal_opened',
  'terminal_closed',
  'api_key_created',
  'api_key_revoked',
  'device_registered',
  // A user's decision on a staged rollout (start, pause, resume, skip a gate, abort).
  'rollout_decision',
] as const;

export type AuditEvent = (typeof auditEvents)[number];

export type AuditAction = 'create' | 'update' | 'delete' | AuditEvent;

const actionLabels: Record<AuditAction, string> = {
  create: 'Created',
  update: 'Updated',
  delete: 'Deleted',
  login: 'Signed in',
  login_failed: 'Sign-in refused',
  login_as: 'Signed in as',
  request: 'Request',
  device_action: 'Device action',
  terminal_opened: 'Terminal opened',
  terminal_closed: 'Terminal closed',
  api_key_created: 'API key created',
  api_key_revoked: 'API key revoked',
  device_registered: 'Device registered',
  rollout_decision: 'Rollout decision',
};

const isAuditAction = (action: string): action is AuditAction =>
  Object.hasOwn(actionLabels, action);

// How the console names a record's action (an action it does not know reads as stored).
export const auditActionLabel = (action: string): string =>
  isAuditAction(action) ? actionLabels[action] : action;

export type AuditActorKind = 'anonymous' | 'user' | 'application' | 'device';

// One field's change; a secret's values read as the mask.
export type AuditFieldChange = { old?: unknown; new?: unknown };

// One record as the audit routes serve it (and as each NDJSON line of an export).
export type AuditEntry = {
  id: number;
  occurredAt: string;
  action: string;
  resource: string;
  resourceId: number | null;
  organizationId: number | null;
  fleetId: number | null;
  deviceId: number | null;
  actor: {
    kind: AuditActorKind;
    // session, api-key or oauth for a user; absent otherwise.
    via: string | null;
    userId: number | null;
    username: string | null;
    fleetId: number | null;
    deviceId: number | null;
    // The platform administrator behind a login-as session.
    impersonatedBy: number | null;
    impersonatedByUsername: string | null;
  };
  changes: Record<string, unknown>;
  address: string | null;
  userAgent: string | null;
  requestId: string | null;
};

export type AuditPage = { entries: AuditEntry[]; nextBefore: number | null };

// What a secret's old and new values read as in the log.
export const auditSecretMask = '••••••';

export const auditPageSizeMax = 200;
// An export streams at most this many records (newest first); narrow the filters for more.
export const auditExportLimit = 100_000;

const optionalId = z.coerce.number().int().min(1).max(2_147_483_647).optional();

// The filters of the organization's log, the platform's log and their exports (query string).
// Users, fleets and devices by id or by what the console shows of them: a username, a fleet's
// name or slug, the start of a device's UUID (at least the 7 characters the console shows).
export const auditFilterSchema = z.object({
  user: optionalId,
  fleet: optionalId,
  device: optionalId,
  username: z
    .string()
    .trim()
    .min(1, 'Username must not be empty')
    .max(100, 'Username must be at most 100 characters')
    .optional(),
  fleetName: z
    .string()
    .trim()
    .regex(
      /^[A-Za-z0-9][\w./-]{0,159}$/,
      'Fleet must be a fleet id, name or slug such as myorg/my-fleet',
    )
    .optional(),
  deviceUuid: z
    .string()
    .trim()
    .regex(
      /^[0-9a-fA-F]{7,62}$/,
      'Device must be a device id or the start of its UUID (7 or more hex characters)',
    )
    .transform((text) => text.toLowerCase())
    .optional(),
  resource: z
    .string()
    .trim()
    .regex(
      /^(?:[a-z_]{1,80}|(?:POST|PUT|PATCH|DELETE) \/[\w\-/:.]{1,200})$/,
      'Resource must be a resource name such as device, or a route such as POST /device/register',
    )
    .optional(),
  from: z.iso.datetime({ message: 'From must be an ISO date and time' }).optional(),
  to: z.iso.datetime({ message: 'To must be an ISO date and time' }).optional(),
  // Keyset paging: records older than this id.
  before: z.coerce.number().int().min(1).optional(),
  limit: z.coerce.number().int().min(1).max(auditPageSizeMax).default(50),
});

export type AuditFilter = z.infer<typeof auditFilterSchema>;

export const auditExportFormats = ['csv', 'ndjson'] as const;
export type AuditExportFormat = (typeof auditExportFormats)[number];
