import type { ActionResult } from '@flotilla/shared/cloudlink/messages';
import { actionsServicePath } from '@flotilla/shared/diagnostics/actions-service';
import {
  checksReport,
  type DiagnosticAction,
  diagnoseReport,
  diagnosticActions,
  isDiagnosticAction,
} from '@flotilla/shared/diagnostics/diagnostics';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../app-context.js';
import { ApiError, forbidden, notFound } from '../../infra/errors/api-error.js';
import { parseBody } from '../../infra/http/validate.js';
import { logFailure } from '../../infra/logging/log-failure.js';
import { recordedTransaction } from '../audit-log/audit-route-records.js';
import { deviceOffline } from '../cloudlink/cloudlink-error.js';
import type { Cloudlink } from '../cloudlink/register-cloudlink.js';
import { isOsUpdateActionId, osUpdateStatus } from '../actions/os-update-action.js';
import { type ActionTarget, permittedTargets } from '../device-actions/action-targets.js';
import { finishRun, readRun, type RunOutcome, startRun } from './run-store.js';

// Where the actions service is mounted (GET /config's actionsPath tells clients).
export const actionsPath = actionsServicePath;

// How long POST waits for the device's answer before answering with the run in progress.
export const answerWaitMs = 2000;

const runParams = z.object({
  uuid: z.string().min(1).max(100),
  action: z.enum(diagnosticActions),
});
const anyRunParams = z.object({ uuid: z.string().min(1).max(100), run: z.string().max(100) });
const readParams = z.object({
  uuid: z.string().min(1).max(100),
  // A run's id, or an action name for its newest run.
  run: z.union([z.enum(diagnosticActions), z.string().regex(/^\d{1,18}$/, 'is not a run id')]),
});

const messageOf = (body: unknown): string => {
  if (typeof body === 'string' && body !== '') return body;
  if (typeof body === 'object' && body !== null && 'message' in body) return String(body.message);
  return 'The device could not run it';
};

// What the device's answer means for the run.
export const outcomeOfAnswer = (action: DiagnosticAction, result: ActionResult): RunOutcome => {
  if (result.status !== 200) return { status: 'error', error: messageOf(result.body) };
  if (action === 'checks') {
    const report = checksReport.safeParse(result.body);
    return report.success
      ? {
          status: 'done',
          diagnoseVersion: report.data.diagnose_version,
          checks: report.data.checks,
          stdout: null,
        }
      : { status: 'error', error: 'The device answered with an unreadable checks report' };
  }
  const report = diagnoseReport.safeParse(result.body);
  return report.success
    ? {
        status: 'done',
        diagnoseVersion: report.data.diagnose_version,
        checks: null,
        stdout: report.data.stdout,
      }
    : { status: 'error', error: 'The device answered with an unreadable diagnostics report' };
};

export type Diagnostics = {
  // Starts a health-check run on each device that is online (the server's own request, as a
  // staged rollout makes it); answers once the runs are started, not finished.
  requestChecks(deviceIds: readonly number[]): Promise<void>;
};

// The actions service, for health checks and diagnostics: POST
// /actions/v1/:uuid/checks|diagnose starts a run on the device (over its cloudlink) and answers
// at once; GET /actions/v1/:uuid/:run reads it (a run id, or checks|diagnose for the newest).
// Both need resin.device.access_diagnostics on the device.
export const registerDiagnostics = (
  app: FastifyInstance,
  ctx: AppContext,
  cloudlink: Cloudlink,
): Diagnostics => {
  const inFlight = new Set<Promise<void>>();
  app.addHook('onClose', async () => {
    await Promise.allSettled(inFlight);
  });

  const diagnosable = async (request: FastifyRequest, uuid: string): Promise<ActionTarget> => {
    const [target] = await permittedTargets(ctx, request.actor, { uuid }, 'checks');
    if (!target) throw forbidden();
    return target;
  };

  const run = async (target: Pick<ActionTarget, 'id'>, action: DiagnosticAction, id: string) => {
    let outcome: RunOutcome;
    try {
      outcome = outcomeOfAnswer(
        action,
        await cloudlink.sendAction(target.id, action, { sentAt: ctx.now().getTime() }),
      );
    } catch (error) {
      outcome = {
        status: 'error',
        error: error instanceof Error ? error.message : 'The device did not answer',
      };
    }
    await finishRun(ctx.db, id, outcome, ctx.now());
  };

  // The run in the background, awaited by the server's close.
  const launch = (deviceId: number, action: DiagnosticAction, id: string): Promise<void> => {
    const work = run({ id: deviceId }, action, id).catch((error: unknown) =>
      logFailure(app.log, error, 'diagnostics run'),
    );
    inFlight.add(work);
    void work.finally(() => inFlight.delete(work));
    return work;
  };

  app.post(
    `${actionsPath}/v1/:uuid/:action`,
    { config: { access: 'user' } },
    async (request, reply) => {
      const { uuid, action } = parseBody(runParams, request.params);
      const target = await diagnosable(request, uuid);
      const online = await cloudlink.connectedDevices([target.id]);
      if (!online.has(target.id)) throw new ApiError('device_offline', deviceOffline().message);
      // The run's row and its audit record commit together (the device is asked once both have).
      const started = await recordedTransaction(
        ctx.db,
        request,
        ctx.now,
        (tx) => startRun(tx, target.id, action, ctx.now()),
        { status: 201, deviceId: target.id },
      );
      const work = launch(target.id, action, started.id);
      // A device usually answers within moments: the answer then comes with the run, and the
      // console need not wait for its next refresh (15 s for checks). A slow run answers in_progress.
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        work,
        new Promise((resolve) => {
          timer = setTimeout(resolve, answerWaitMs);
        }),
      ]);
      clearTimeout(timer);
      const current = (await readRun(ctx.db, target.id, { id: started.id }, ctx.now())) ?? started;
      return reply.status(201).send(current);
    },
  );

  app.get(
    `${actionsPath}/v1/:uuid/:run`,
    { config: { access: 'user' } },
    async (request, reply) => {
      // The same path reads OS updates started through the actions service (features/actions).
      const anyRun = parseBody(anyRunParams, request.params);
      if (isOsUpdateActionId(anyRun.run)) {
        return osUpdateStatus(ctx, request.actor, anyRun.uuid, anyRun.run);
      }
      const params = parseBody(readParams, request.params);
      const target = await diagnosable(request, params.uuid);
      if (isDiagnosticAction(params.run)) {
        // The newest run of an action: none yet is an answer (null), not a missing resource, so
        // that the console's first look at the tab is not a failed request.
        const newest = await readRun(ctx.db, target.id, { latest: params.run }, ctx.now());
        return reply.type('application/json').send(JSON.stringify(newest ?? null));
      }
      const found = await readRun(ctx.db, target.id, { id: params.run }, ctx.now());
      if (!found) throw notFound('No such run on this device');
      return found;
    },
  );

  return {
    async requestChecks(deviceIds) {
      const online = await cloudlink.connectedDevices(deviceIds);
      for (const deviceId of deviceIds) {
        if (!online.has(deviceId)) continue;
        const started = await startRun(ctx.db, deviceId, 'checks', ctx.now());
        void launch(deviceId, 'checks', started.id);
      }
    },
  };
};
