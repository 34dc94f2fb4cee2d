import type { FastifyInstance } from 'fastify';
import { isFailedStatus } from '@flotilla/shared/releases/release-status';
import { type AppContext, messageBusOf } from '../../app-context.js';
import { type BuildStop, buildQueueOf } from './build-queue.js';

// A server build is cancelled as balena's is: its release's status set to cancelled through the
// API (PATCH /v7/release(<id>), which balena-cli sends on Ctrl-C during `balena push` and the
// console's Cancel build), under the same rules as any release update, so only those who may
// change the fleet's releases can. The write notifies every server process on commit; the one
// building that release stops it on the engine.

const channel = 'server_build_ended';

export const cancelledLine =
  'Build cancelled: its release was cancelled while it was being built; the build was stopped';

export const clientGoneLine =
  'Build cancelled: the client that started it went away (balena push interrupted); the build was stopped';

// How the build of a release that is no longer running ends.
export const stopOfStatus = (status: string): BuildStop =>
  status === 'cancelled'
    ? { status: 'cancelled', line: cancelledLine }
    : {
        status: 'failed',
        line: `Build failed: its release was marked ${status} while it was being built; the build was stopped`,
      };

type Ended = { release: number; status: string };

const endedOf = (payload: string): Ended | undefined => {
  try {
    const value: unknown = JSON.parse(payload);
    if (
      typeof value === 'object' &&
      value !== null &&
      'release' in value &&
      typeof value.release === 'number' &&
      'status' in value &&
      typeof value.status === 'string'
    ) {
      return { release: value.release, status: value.status };
    }
  } catch {
    // Not ours: nothing to stop.
  }
  return undefined;
};

export const registerBuildCancellation = (app: FastifyInstance, ctx: AppContext): void => {
  ctx.hooks.add('release', {
    async afterUpdate(write, ids, values) {
      const status = values.status;
      if (typeof status !== 'string' || !isFailedStatus(status)) return;
      await write.tx.query(
        `SELECT flotilla_bus_notify($2, json_build_object('release', b."release", 'status', $3::text)::text)
           FROM "server_build" b WHERE b."release" = ANY($1::integer[])`,
        [[...ids], channel, status],
      );
    },
  });
  const queue = buildQueueOf(ctx.config);
  const subscription = messageBusOf(ctx).listen(channel, (payload) => {
    const ended = endedOf(payload);
    if (ended !== undefined) queue.stop(ended.release, stopOfStatus(ended.status));
  });
  app.addHook('onClose', async () => {
    subscription.close();
  });
};
