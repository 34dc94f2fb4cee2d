import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../app-context.js';
import { notFound } from '../../infra/errors/api-error.js';
import { parseBody } from '../../infra/http/validate.js';
import { requirePlatformAdmin } from '../platform-admin/register-platform-admin.js';
import { listCatalogue, patchPlan, planPatchBody } from './catalogue-admin.js';
import { recordedTransaction } from '../audit-log/audit-route-records.js';

const planParams = z.object({ code: z.string().trim().min(1).max(64) });

// The plan catalogue: every signed-in user reads it (the billing page's plan table); platform
// administrators change it (Admin → Plans).
export const registerBillingCatalogue = (app: FastifyInstance, ctx: AppContext): void => {
  app.get('/billing/v1/plans', { config: { access: 'user' } }, async () => listCatalogue(ctx.db));

  app.patch('/billing/v1/admin/plans/:code', { config: { access: 'user' } }, async (request) => {
    requirePlatformAdmin(request.actor);
    const { code } = parseBody(planParams, request.params);
    const patch = parseBody(planPatchBody, request.body);
    return recordedTransaction(ctx.db, request, ctx.now, async (tx) => {
      const { rows } = await tx.query<{ id: number }>(
        `SELECT "id" FROM "plan" WHERE "billing_code" = $1 FOR UPDATE`,
        [code],
      );
      const plan = rows[0];
      if (!plan) throw notFound(`There is no plan ${code}`);
      await patchPlan(tx, plan.id, patch);
      const changed = (await listCatalogue(tx)).find((entry) => entry.id === plan.id);
      if (!changed) throw notFound(`There is no plan ${code}`);
      return changed;
    });
  });
};
