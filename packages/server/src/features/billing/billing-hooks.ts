import { planAllows } from '@flotilla/shared/billing/plan-gates';
import { badRequest } from '../../infra/errors/api-error.js';
import type { HookRegistry } from '../../infra/odata/hooks.js';
import { planFactsOf } from './plan-info.js';
import { activeSubscription } from './subscriptions.js';

// The plan gates on /v7 writes: deactivating a device needs a paid plan (with billing on).
export const registerBillingHooks = (
  hooks: HookRegistry,
  options: { billingEnabled: boolean },
): void => {
  if (!options.billingEnabled) return;
  hooks.add('device', {
    beforeUpdate: async (ctx, ids, values) => {
      if (values.is_active !== false || ids.length === 0) return;
      const { rows } = await ctx.tx.query<{ organization: number }>(
        `SELECT DISTINCT a."organization" FROM "device" d
         JOIN "application" a ON a."id" = d."belongs_to__application"
         WHERE d."id" = ANY($1::integer[]) AND d."is_active"`,
        [[...ids]],
      );
      for (const { organization } of rows) {
        const subscription = await activeSubscription(ctx.tx, organization, ctx.now);
        const answer = planAllows(planFactsOf(subscription), 'deactivation');
        if (!answer.allowed) throw badRequest(answer.reason);
      }
    },
  });
};
