import { rolloutPlan } from '@flotilla/shared/rollouts/rollout-plan';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../app-context.js';
import type { Actor } from '../../infra/auth/actor.js';
import { ApiError, forbidden, notFound } from '../../infra/errors/api-error.js';
import { maxRowId, parseBody } from '../../infra/http/validate.js';
import { registerPeriodicTask, type Schedule } from '../../infra/scheduling/periodic-task.js';
import { userMayOnFleet } from '../api-keys/api-key-access.js';
import { recordRouteChange } from '../audit-log/audit-route-records.js';
import { type RolloutCommand, runCommand } from './rollout-commands.js';
import { fleetRollouts, rolloutDetail, rolloutFleet } from './rollout-reads.js';
import { checkPlan, startRollout } from './rollout-start.js';
import { runRolloutTick } from './rollout-tick.js';
import { waveCounts } from './wave-assignment.js';

const fleetParams = z.object({ fleet: z.coerce.number().int().min(1).max(maxRowId) });
const rolloutParams = z.object({ id: z.coerce.number().int().min(1).max(maxRowId) });
const skipBody = z.object({
  reason: z.string().trim().min(1, 'Say why the gate is skipped').max(500),
});

// How often the scheduler judges the waves in progress.
export const rolloutTickMs = 15_000;

// The caller's user id once the shared table grants `action` on rollouts of the fleet; a fleet
// the caller cannot read at all looks like no fleet.
const requireFleetRight = async (
  ctx: AppContext,
  actor: Actor,
  fleet: number,
  action: string,
): Promise<number> => {
  if (actor.kind !== 'user') throw forbidden();
  if (!(await userMayOnFleet(ctx.db, actor.userId, fleet, 'flotilla_rollout', 'read'))) {
    throw notFound(`No fleet ${fleet}`);
  }
  if (!(await userMayOnFleet(ctx.db, actor.userId, fleet, 'flotilla_rollout', action))) {
    throw forbidden(`Your role on this fleet may not ${action} rollouts`);
  }
  return actor.userId;
};

const commandRoutes: {
  path: string;
  action: string;
  command: (body: unknown) => RolloutCommand;
}[] = [
  { path: 'pause', action: 'pause', command: () => ({ kind: 'pause' }) },
  { path: 'resume', action: 'update', command: () => ({ kind: 'resume' }) },
  { path: 'abort', action: 'abort', command: () => ({ kind: 'abort' }) },
  {
    path: 'skip-gate',
    action: 'update',
    command: (body) => ({ kind: 'skip-gate', reason: parseBody(skipBody, body).reason }),
  },
];

// Staged rollouts: a fleet's rollouts, planning and starting one, its live state, and the
// decisions users take on it; the scheduler moves it wave by wave.
export const registerRollouts = (
  app: FastifyInstance,
  ctx: AppContext,
  // Tests drive the tick themselves (runRolloutTick) and pass a schedule that never fires.
  // requestChecks: asks devices to run their health checks (the diagnostics feature).
  options: {
    schedule?: Schedule;
    requestChecks?: (deviceIds: readonly number[]) => Promise<void>;
  } = {},
): void => {
  app.get(
    '/rollouts/v1/fleets/:fleet/rollouts',
    { config: { access: 'user' } },
    async (request) => {
      const { fleet } = parseBody(fleetParams, request.params);
      await requireFleetRight(ctx, request.actor, fleet, 'read');
      return { rollouts: await fleetRollouts(ctx.db, fleet) };
    },
  );

  // The expected device count of each wave, for the plan form (nothing is written).
  app.post(
    '/rollouts/v1/fleets/:fleet/rollout-plan',
    { config: { access: 'user' } },
    async (request) => {
      const { fleet } = parseBody(fleetParams, request.params);
      await requireFleetRight(ctx, request.actor, fleet, 'create');
      const plan = parseBody(rolloutPlan, request.body);
      const { devices } = await checkPlan(ctx.db, fleet, plan);
      return { counts: waveCounts(plan.waves, devices), devices: devices.length };
    },
  );

  app.post(
    '/rollouts/v1/fleets/:fleet/rollouts',
    { config: { access: 'user' } },
    async (request, reply) => {
      const { fleet } = parseBody(fleetParams, request.params);
      const userId = await requireFleetRight(ctx, request.actor, fleet, 'create');
      const plan = parseBody(rolloutPlan, request.body);
      const id = await ctx.db.transaction(async (tx) => {
        const started = await startRollout(tx, fleet, plan, userId, ctx.now());
        await recordRouteChange(tx, request, ctx.now(), { status: 201, fleetId: fleet });
        return started;
      });
      return reply.code(201).send(await rolloutDetail(ctx.db, id));
    },
  );

  const rolloutOf = async (id: number): Promise<number> => {
    const fleet = await rolloutFleet(ctx.db, id);
    if (fleet === undefined) throw notFound(`No rollout ${id}`);
    return fleet;
  };

  app.get('/rollouts/v1/rollouts/:id', { config: { access: 'user' } }, async (request) => {
    const { id } = parseBody(rolloutParams, request.params);
    const fleet = await rolloutOf(id);
    try {
      await requireFleetRight(ctx, request.actor, fleet, 'read');
    } catch {
      throw notFound(`No rollout ${id}`);
    }
    return rolloutDetail(ctx.db, id);
  });

  for (const route of commandRoutes) {
    app.post(
      `/rollouts/v1/rollouts/:id/${route.path}`,
      { config: { access: 'user' } },
      async (request) => {
        const { id } = parseBody(rolloutParams, request.params);
        const fleet = await rolloutOf(id);
        const userId = await requireFleetRight(ctx, request.actor, fleet, route.action).catch(
          (error: unknown) => {
            throw error instanceof ApiError && error.code === 'not_found'
              ? notFound(`No rollout ${id}`)
              : error;
          },
        );
        const command = route.command(request.body);
        await ctx.db.transaction(async (tx) => {
          await runCommand(tx, id, command, userId, ctx.now());
          await recordRouteChange(tx, request, ctx.now(), { fleetId: fleet });
        });
        return rolloutDetail(ctx.db, id);
      },
    );
  }

  registerPeriodicTask(app, {
    run: async () => {
      const toCheck = await runRolloutTick(ctx.db, ctx.now());
      if (toCheck.length > 0) await options.requestChecks?.(toCheck);
    },
    intervalMs: rolloutTickMs,
    failure: 'Rollout tick failed',
    schedule: options.schedule,
  });
};
