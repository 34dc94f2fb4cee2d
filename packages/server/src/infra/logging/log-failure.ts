import type { FastifyBaseLogger } from 'fastify';
import { isDatabaseUnavailable } from '../db/connection-errors.js';

// Background work (log flushes, heartbeats, LISTEN reconnects) failing because the database is
// away is expected and already reported once, when the database became unreachable
// (start-server.ts): those failures go to debug. Anything else is a bug worth an error line.
export const logFailure = (log: FastifyBaseLogger, error: unknown, what: string): void => {
  if (isDatabaseUnavailable(error)) {
    log.debug({ reason: error instanceof Error ? error.message : String(error) }, what);
  } else {
    log.error({ err: error }, what);
  }
};
