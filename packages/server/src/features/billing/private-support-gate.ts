import { planAllows } from '@flotilla/shared/billing/plan-gates';
import type { AppContext } from '../../app-context.js';
import { settleOrganization } from './billing-engine.js';
import { planFactsOf } from './plan-info.js';

// Whether an organization's plan includes private support (the shared plan gate), for the help
// desk's support check and ticket form while billing is on.
export const privateSupportGate =
  (ctx: Pick<AppContext, 'db' | 'now'>) =>
  async (organizationId: number): Promise<boolean> =>
    planAllows(
      planFactsOf(await settleOrganization(ctx.db, organizationId, ctx.now())),
      'private-support',
    ).allowed;
