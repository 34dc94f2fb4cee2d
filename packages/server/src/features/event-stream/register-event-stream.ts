import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type AppContext, messageBusOf } from '../../app-context.js';
import type { Actor } from '../../infra/auth/actor.js';
import { ApiError } from '../../infra/errors/api-error.js';
import type { ActorResolver } from '../../infra/http/create-app.js';
import { openStreamConnection, resetText, type StreamConnection } from './stream-connection.js';
import { createStreamLeases } from './stream-leases.js';
import { latestPosition, permittedReads, replayable } from './stream-reads.js';

export type EventStreamOptions = {
  // A comment line this often; the caller's token is checked again at each (sign-out, revocation).
  heartbeatMs?: number;
  // Open streams per user, counted across every process (leases in PostgreSQL).
  maxPerUser?: number;
  // A stream's lease lapses this long after its last renewal (each heartbeat renews it): the
  // streams of a process that died stop counting after it.
  leaseMs?: number;
  // A resuming client is given at most this many missed events, from at most this far back;
  // beyond, a "reset" event tells it to refetch.
  maxReplay?: number;
  replayWindowMs?: number;
};

export const eventStreamDefaults = {
  heartbeatMs: 15_000,
  maxPerUser: 5,
  leaseMs: 45_000,
  maxReplay: 1_000,
  replayWindowMs: 24 * 60 * 60_000,
} as const;

const positionPattern = /^\d{1,18}$/;

const tokenOf = (request: FastifyRequest): string | undefined => {
  const header = request.headers.authorization;
  return header?.startsWith('Bearer ') ? header.slice('Bearer '.length).trim() : undefined;
};

const sameUser = (actor: Actor, userId: number): boolean =>
  actor.kind === 'user' && !actor.twoFactorPending && actor.userId === userId;

// GET /events/v1/stream: the caller's permitted events, live, as server-sent events
// (docs/EVENTS.md#the-live-stream). One LISTEN per process wakes every open stream.
export const registerEventStream = (
  app: FastifyInstance,
  ctx: AppContext,
  resolveActor: ActorResolver,
  options: EventStreamOptions = {},
): void => {
  const settings = { ...eventStreamDefaults, ...options };
  const open = new Set<StreamConnection>();
  const leases = createStreamLeases({ db: ctx.db, now: ctx.now, leaseMs: settings.leaseMs });
  const held = new Set<string>();
  const releaseLease = (lease: string, request: FastifyRequest): void => {
    if (!held.delete(lease)) return;
    leases.release(lease).catch((error: unknown) => {
      // Not deleted: it lapses on its own after leaseMs.
      request.log.warn({ err: error }, 'event stream lease not released');
    });
  };

  app.addHook('onReady', () => {
    const wake = () => {
      for (const connection of open) connection.pump();
    };
    const subscription = messageBusOf(ctx).listen('flotilla_event_stream', wake, wake);
    app.addHook('onClose', async () => {
      subscription.close();
      for (const connection of open) connection.close();
      // This process's streams stop counting now (or, with the database gone, when they lapse).
      const leaving = [...held.values()];
      held.clear();
      await leases.releaseAll(leaving).catch(() => undefined);
    });
    return Promise.resolve();
  });

  // The position to start from, and what to tell first: a client resuming within the bounds
  // gets what it missed; otherwise it starts now, told to refetch when it asked to resume.
  const startOf = async (
    lastEventId: string | undefined,
    reads: ReturnType<typeof permittedReads>,
  ): Promise<{ position: string; first: string }> => {
    const latest = await latestPosition(ctx.db);
    if (lastEventId === undefined) return { position: latest, first: ': connected\n\n' };
    const oldest = new Date(ctx.now().getTime() - settings.replayWindowMs);
    if (!positionPattern.test(lastEventId) || !(await replayable(ctx.db, lastEventId, oldest))) {
      return { position: latest, first: resetText(latest, 'The events since then are not kept') };
    }
    const missed = reads ? await reads.after(ctx.db, lastEventId, settings.maxReplay + 1) : [];
    if (missed.length > settings.maxReplay) {
      return { position: latest, first: resetText(latest, 'Too many events since then') };
    }
    return { position: lastEventId, first: ': resumed\n\n' };
  };

  app.get('/events/v1/stream', { config: { access: 'user' } }, async (request, reply) => {
    const actor = request.actor;
    if (actor.kind !== 'user') throw new ApiError('unauthorized', 'Unauthorized');
    const { userId } = actor;
    const lease = await leases.acquire(userId, settings.maxPerUser);
    if (lease === undefined) {
      throw new ApiError(
        'rate_limited',
        `At most ${settings.maxPerUser} event streams per user at a time`,
      );
    }
    held.add(lease);
    const reads = permittedReads(ctx.model, actor);
    const header = request.headers['last-event-id'];
    let start;
    try {
      start = await startOf(typeof header === 'string' ? header.trim() : undefined, reads);
    } catch (error) {
      releaseLease(lease, request);
      throw error;
    }
    const connection = openStreamConnection({
      db: ctx.db,
      reads,
      position: start.position,
      onError: (error) => request.log.warn({ err: error }, 'event stream read failed'),
    });
    open.add(connection);
    const token = tokenOf(request);
    const timer = setInterval(() => {
      connection.heartbeat();
      connection.pump();
      // Signed out, revoked, expired or changed: the stream ends. So does one whose lease
      // lapsed (this process could not renew it): the client resumes and is counted again.
      resolveActor(token).then(
        (again) => {
          if (!sameUser(again, userId)) connection.close();
        },
        () => connection.close(),
      );
      leases.renew(lease).then(
        (held) => {
          if (!held) connection.close();
        },
        () => connection.close(),
      );
    }, settings.heartbeatMs);
    timer.unref();
    connection.stream.on('close', () => {
      clearInterval(timer);
      open.delete(connection);
      releaseLease(lease, request);
    });
    reply.raw.on('close', () => connection.stream.destroy());
    connection.stream.write(`retry: 3000\n${start.first}`);
    connection.pump();
    return reply
      .type('text/event-stream; charset=utf-8')
      .header('Cache-Control', 'no-cache')
      .header('X-Accel-Buffering', 'no')
      .send(connection.stream);
  });
};
