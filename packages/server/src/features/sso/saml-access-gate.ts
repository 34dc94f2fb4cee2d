import { planAllows } from '@flotilla/shared/billing/plan-gates';
import { badRequest } from '../../infra/errors/api-error.js';
import type { WriteContext } from '../../infra/odata/hooks.js';
import { planFactsOf } from '../billing/plan-info.js';
import { activeSubscription } from '../billing/subscriptions.js';

// The plan gate of SAML: with billing on, an organization's plan must include the `saml_access`
// feature (the shared plan gate) before its administrators add or attach identity providers.
// An installation that does not bill lets every organization use SAML.
export const assertSamlAccessAllowed = async (
  ctx: Pick<WriteContext, 'tx' | 'now'>,
  organizationId: number,
  billingEnabled: boolean,
): Promise<void> => {
  if (!billingEnabled) return;
  const subscription = await activeSubscription(ctx.tx, organizationId, ctx.now);
  const answer = planAllows(planFactsOf(subscription), 'saml');
  if (!answer.allowed) throw badRequest(answer.reason);
};
