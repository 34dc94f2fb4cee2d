import type { FastifyInstance } from 'fastify';
import { databaseRetryAfterSeconds } from '../../infra/db/connection-errors.js';
import type { Database } from '../../infra/db/database.js';

// How long /ready waits for PostgreSQL's answer.
export const readyTimeoutMs = 2_000;

export type HealthDeps = { db: Pick<Database, 'ping'> };

// Liveness: the console pings /ping (no token, no retry; three failures show "We are
// offline") and devices use /connectivity-check. Both say the process answers HTTP, nothing
// more, so a database outage never makes a supervisor restart a healthy process, and the
// console reports the failing requests themselves (503) rather than "offline".
// Readiness: /ready answers 200 only while PostgreSQL answers (load balancers, orchestrators).
export const registerHealth = (app: FastifyInstance, deps: HealthDeps): void => {
  app.get('/ping', { config: { access: 'public' } }, async (_request, reply) =>
    reply.type('text/plain; charset=utf-8').send('OK'),
  );
  app.get('/connectivity-check', { config: { access: 'public' } }, async (_request, reply) =>
    reply.status(204).send(),
  );
  app.get('/ready', { config: { access: 'public' } }, async (request, reply) => {
    void reply.header('Cache-Control', 'no-store').type('text/plain; charset=utf-8');
    try {
      await deps.db.ping(readyTimeoutMs);
      return reply.send('OK');
    } catch (error) {
      request.log.debug({ err: error }, 'not ready: the database does not answer');
      return reply
        .status(503)
        .header('Retry-After', String(databaseRetryAfterSeconds))
        .send('Not ready: the database does not answer');
    }
  });
};
