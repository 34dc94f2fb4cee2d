import { socialAuthMessages } from '@flotilla/shared/social-auth/social-providers';
import { requireUserSessionMay } from '../../infra/auth/session-rules.js';
import { conflict } from '../../infra/errors/api-error.js';
import type { HookRegistry } from '../../infra/odata/hooks.js';
import { ownersLeftWithoutWayIn } from './social-account-store.js';

// Unlinking (DELETE /v7/social_service_account, Preferences → Profile): only the owner's own
// password session, and never the last way into an account (no password, no SAML account, no
// other linked account).
export const registerSocialAccountHooks = (hooks: HookRegistry): void => {
  hooks.add('social_service_account', {
    async beforeDelete(ctx, ids) {
      requireUserSessionMay(ctx.actor, 'link-accounts');
      const stranded = await ownersLeftWithoutWayIn(ctx.tx, ids);
      if (stranded.length > 0) throw conflict(socialAuthMessages.lastWayIn);
    },
  });
};
