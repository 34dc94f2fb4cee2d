import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.js';
import { createRateLimiter } from '../../infra/rate-limit/rate-limiter.js';
import { registerPeriodicTask } from '../../infra/scheduling/periodic-task.js';
import { publicUrlOf } from '../mail/register-mail.js';
import {
  abandonedUploadMs,
  attachmentSweepIntervalMs,
  sweepAbandonedUploads,
} from './attachment-sweep.js';
import { createBuiltInDesk } from './built-in-desk.js';
import { noPaidPlans, type PaidPlanGate } from './support-access.js';
import type { SupportDesk } from './support-desk.js';
import { registerTicketFieldsAdmin } from './register-ticket-fields-admin.js';
import { registerTicketForm } from './register-ticket-form.js';
import { registerTicketQueue } from './register-ticket-queue.js';
import { registerTickets } from './register-tickets.js';
import { createZendeskDesk } from './zendesk-desk.js';

export type SupportOptions = {
  // Whether an organization's plan includes private support, asked only when billing is on.
  paidPlanGate?: PaidPlanGate;
};

// The help desk: the ticket form's calls (built-in desk, or forwarded to Zendesk when
// configured), the organization's tickets and the agents' queue.
export const registerSupport = (
  app: FastifyInstance,
  ctx: AppContext,
  options: SupportOptions = {},
): void => {
  const origin = () => publicUrlOf(app, ctx.config.publicUrl);
  const limiter = createRateLimiter(ctx.db, ctx.now);
  const desk: SupportDesk =
    ctx.config.helpDesk.kind === 'zendesk'
      ? createZendeskDesk(ctx.config.helpDesk)
      : createBuiltInDesk({
          db: ctx.db,
          dataDir: ctx.config.dataDir,
          origin,
          limiter,
          consoleUrl: origin,
        });
  registerTicketForm(app, ctx, desk, options.paidPlanGate ?? noPaidPlans);
  registerTickets(app, ctx, origin);
  // Files of another database's uploads are not abandoned (the start said so in the log).
  if (ctx.installation.kind !== 'mismatch') {
    registerPeriodicTask(app, {
      run: async () => {
        const cutoff = new Date(ctx.now().getTime() - abandonedUploadMs);
        await sweepAbandonedUploads(ctx.db, ctx.config.dataDir, cutoff);
      },
      intervalMs: attachmentSweepIntervalMs,
      firstRunMs: 0,
      failure: 'support attachment sweep failed',
    });
  }
  registerTicketQueue(app, ctx, { limiter, consoleUrl: origin });
  registerTicketFieldsAdmin(app, ctx);
};
