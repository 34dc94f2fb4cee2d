import {
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
  LogController,
} from 'fastify';
import type { Actor } from '../auth/actor.js';
import { redactUrl } from '../http/log-redaction.js';

const debugEnabled = (level: string): boolean => level === 'debug' || level === 'trace';

// Fastify's per-request log lines, quieter: devices poll all the time, so request lines at info
// would bury everything else (25 simulated devices made ~300 lines a minute). One line per
// answered request at debug; the query string is left out (it may hold an apikey) and secret
// path segments (invitation tokens...) are redacted. Clients
// going away mid-stream (log streams, closed tabs) are normal: debug too.
export class QuietRequestLog extends LogController {
  override incomingRequest(): void {
    // The completion line below says all.
  }

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    const actor: Actor | undefined = request.actor;
    const loginAs = actor?.kind === 'user' && actor.actualUserId !== undefined;
    // Most requests log nothing: no line is built for them.
    if (!error && !loginAs && !debugEnabled(reply.log.level)) return;
    const line = {
      method: request.method,
      url: redactUrl(request.url.split('?')[0] ?? ''),
      statusCode: reply.statusCode,
      ms: Math.round(reply.elapsedTime),
    };
    // The actor is unset when the request failed before actor resolution (a malformed URL).
    if (actor?.kind === 'user' && actor.actualUserId !== undefined) {
      // Done by a platform administrator signed in as this user: always logged, naming both.
      const attributed = { ...line, userId: actor.userId, actualUser: actor.actualUserId };
      if (error) reply.log.warn({ ...attributed, err: error }, 'request failed (login-as)');
      else reply.log.info(attributed, 'request as another user (login-as)');
      return;
    }
    if (error) reply.log.warn({ ...line, err: error }, 'request failed');
    else reply.log.debug(line, 'request');
  }

  override streamError(error: Error, request: FastifyRequest, reply: FastifyReply): void {
    if ('code' in error && error.code === 'ERR_STREAM_PREMATURE_CLOSE') {
      reply.log.debug(
        { url: redactUrl(request.url.split('?')[0] ?? '') },
        'client left a streamed response',
      );
    } else {
      super.streamError(error, request, reply);
    }
  }
}

// Fastify gives every request a child logger bound to its id, which costs a logger (and its
// redaction setup) per request: ~3 % of a steady 304 poll's CPU. Request lines exist at debug
// only (above), so below debug a request logs through the app's logger itself; warnings and
// errors name method and URL anyway.
export const requestChildLogger: NonNullable<FastifyServerOptions['childLoggerFactory']> =
  function (logger, bindings, options) {
    return debugEnabled(logger.level) ? logger.child(bindings, options) : logger;
  };
