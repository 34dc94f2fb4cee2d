import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { Queryable } from '../../infra/db/database.js';
import { requestOrigin } from '../../infra/odata/register-odata-routes.js';
import { type AuditEventRecord, recordAuditEvent } from './audit-writer.js';

// Records an event of `request` (its caller unless `actor` says otherwise, its address, user
// agent and id). Pass the change's transaction as `db` where there is one.
export const recordRequestEvent = async (
  db: Queryable,
  request: FastifyRequest,
  event: Omit<AuditEventRecord, 'actor' | 'origin' | 'now'> & {
    actor?: AuditEventRecord['actor'];
  },
  now: Date,
): Promise<void> => {
  await recordAuditEvent(db, {
    ...event,
    actor: event.actor ?? request.actor,
    origin: requestOrigin(request),
    now,
  });
};

export type TerminalSessionEvent = {
  event: 'opened' | 'closed';
  deviceId: number;
  userId: number;
  actualUserId: number | undefined;
  target: string;
  seconds?: number;
};

// The web terminal's sessions, opened and closed. A session is no row change, so a failed
// record is logged, never thrown into the socket.
export const terminalSessionRecorder =
  (db: Queryable, now: () => Date, log: FastifyBaseLogger) =>
  (session: TerminalSessionEvent): void => {
    recordAuditEvent(db, {
      action: session.event === 'opened' ? 'terminal_opened' : 'terminal_closed',
      resource: 'device',
      resourceId: session.deviceId,
      fleetId: null,
      deviceId: session.deviceId,
      actor: {
        kind: 'user-id',
        userId: session.userId,
        via: 'session',
        actualUserId: session.actualUserId,
      },
      details: {
        target: session.target,
        ...(session.seconds === undefined ? {} : { seconds: session.seconds }),
      },
      now: now(),
    }).catch((error: unknown) => {
      log.error({ err: error }, 'audit log: could not record a terminal session');
    });
  };
