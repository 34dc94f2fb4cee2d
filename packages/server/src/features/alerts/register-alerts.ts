import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.js';
import { registerPeriodicTask, type Schedule } from '../../infra/scheduling/periodic-task.js';
import { publicUrlOf } from '../mail/register-mail.js';
import { sweepAlerts } from './alert-sweep.js';

// How often the alert rules are evaluated: an alert fires within a minute of its condition.
export const alertSweepIntervalMs = 60_000;

// Alert rules are written through /v7 (flotilla_alert_rule, with alert-rule-hooks.ts); this
// evaluates them every minute.
export const registerAlerts = (
  app: FastifyInstance,
  ctx: AppContext,
  options: { schedule?: Schedule } = {},
): void => {
  registerPeriodicTask(app, {
    run: async () => {
      const outcome = await sweepAlerts(ctx.db, ctx.now(), publicUrlOf(app, ctx.config.publicUrl));
      if (outcome.fired + outcome.resolved > 0) app.log.info(outcome, 'alert rules evaluated');
    },
    intervalMs: alertSweepIntervalMs,
    failure: 'could not evaluate the alert rules; will retry',
    schedule: options.schedule,
  });
};
