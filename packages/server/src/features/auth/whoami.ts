import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.js';
import type { Actor } from '../../infra/auth/actor.js';
import type { Queryable } from '../../infra/db/database.js';
import { ApiError } from '../../infra/errors/api-error.js';

export type ActorWhoami =
  | { id: number; actorType: 'user'; actorTypeId: number; username: string; email: string | null }
  | { id: number; actorType: 'application'; actorTypeId: number; slug: string }
  | { id: number; actorType: 'device'; actorTypeId: number; uuid: string };

const firstRow = async <Row extends object>(
  db: Queryable,
  sql: string,
  id: number,
): Promise<Row> => {
  const { rows } = await db.query<Row>(sql, [id]);
  const row = rows[0];
  // The owner vanished between resolving the token and now.
  if (!row) throw new ApiError('unauthorized', 'Unauthorized');
  return row;
};

// `id` is the actor id, `actorTypeId` the user/fleet/device id (the SDK uses both).
export const describeActor = async (db: Queryable, actor: Actor): Promise<ActorWhoami> => {
  switch (actor.kind) {
    case 'anonymous':
      throw new ApiError('unauthorized', 'Unauthorized');
    case 'user': {
      const user = await firstRow<{ username: string; email: string | null }>(
        db,
        'SELECT "username", "email" FROM "user" WHERE "id" = $1',
        actor.userId,
      );
      return { id: actor.actorId, actorType: 'user', actorTypeId: actor.userId, ...user };
    }
    case 'application': {
      const { slug } = await firstRow<{ slug: string }>(
        db,
        'SELECT "slug" FROM "application" WHERE "id" = $1',
        actor.applicationId,
      );
      return {
        id: actor.actorId,
        actorType: 'application',
        actorTypeId: actor.applicationId,
        slug,
      };
    }
    case 'device': {
      const { uuid } = await firstRow<{ uuid: string }>(
        db,
        'SELECT "uuid" FROM "device" WHERE "id" = $1',
        actor.deviceId,
      );
      return { id: actor.actorId, actorType: 'device', actorTypeId: actor.deviceId, uuid };
    }
  }
};

export const registerWhoami = (app: FastifyInstance, ctx: AppContext): void => {
  // Public at the route so a session whose second factor is pending still learns who it is;
  // anonymous callers get 401 from describeActor.
  app.get(
    '/actor/v1/whoami',
    { config: { access: 'public', unverifiedUsers: 'allowed' } },
    async (request) => describeActor(ctx.db, request.actor),
  );

  // Legacy: SDK 23 no longer calls it.
  app.get(
    '/user/v1/whoami',
    { config: { access: 'user', unverifiedUsers: 'allowed' } },
    async (request) => {
      const actor = request.actor;
      if (actor.kind !== 'user') throw new ApiError('unauthorized', 'Unauthorized');
      const user = await firstRow<{ id: number; username: string; email: string | null }>(
        ctx.db,
        'SELECT "id", "username", "email" FROM "user" WHERE "id" = $1',
        actor.userId,
      );
      return user;
    },
  );
};
