import type { RateLimiter } from './infra/rate-limit/rate-limiter.js';
import type { HookRegistry } from './infra/odata/hooks.js';
import { registerAuditLogHooks } from './features/audit-log/audit-log-hooks.js';
import { registerApiKeyHooks } from './features/api-keys/api-key-hooks.js';
import { registerBillingHooks } from './features/billing/billing-hooks.js';
import { registerCreditPurchaseHooks } from './features/billing/credit-purchase.js';
import { registerFreezingHooks } from './features/billing/freezing.js';
import {
  manualPaymentProvider,
  type PaymentProvider,
} from './features/billing/payment-provider.js';
import { registerDeviceHooks } from './features/devices/device-hooks.js';
import type { VerificationMailDeps } from './features/email-verification/verification-mail.js';
import { registerVerificationHooks } from './features/email-verification/register-email-verification.js';
import { registerFleetHooks } from './features/fleets/fleet-hooks.js';
import { registerHostOsTargetHooks } from './features/host-os/host-os-target-hooks.js';
import {
  type InvitationHookDeps,
  registerInvitationHooks,
} from './features/invitations/invitation-hooks.js';
import { registerMembershipHooks } from './features/memberships/membership-hooks.js';
import { registerOrganizationMembershipRules } from './features/memberships/organization-membership-rules.js';
import { registerOrganizationHooks } from './features/organizations/organization-hooks.js';
import { registerReleaseAssetHooks } from './features/release-assets/release-asset-hooks.js';
import { registerReleaseHooks } from './features/releases/release-hooks.js';
import { registerSocialAccountHooks } from './features/social-auth/social-account-hooks.js';
import { registerSshKeyHooks } from './features/ssh-keys/ssh-key-hooks.js';
import { registerAlertRuleHooks } from './features/alerts/alert-rule-hooks.js';
import { registerIdentityProviderHooks } from './features/sso/identity-provider-hooks.js';
import { registerTeamHooks } from './features/teams/team-hooks.js';
import { registerUserHooks } from './features/users/user-hooks.js';
import { registerVariableHooks } from './features/variables/variable-hooks.js';

export type FeatureHookDeps = {
  // Host (and port) of the registry images are pushed to.
  registryHost: string;
  // Where uploaded release assets are kept (a deleted asset's file goes with it).
  dataDir: string;
  invitations: InvitationHookDeps;
  verification: VerificationMailDeps & { limiter: RateLimiter };
  // FLOTILLA_BILLING: the plan gates hold only when billing is on.
  billingEnabled: boolean;
  // How credits are paid (the installation's provider; the manual one when not given).
  paymentProvider?: PaymentProvider;
};

// Every feature's /v7 hooks, in one list: the server and the engine's test app both register
// exactly these, so what a test of the data API sees is what the product does.
export const registerFeatureHooks = (hooks: HookRegistry, deps: FeatureHookDeps): void => {
  registerOrganizationHooks(hooks);
  registerFleetHooks(hooks);
  registerDeviceHooks(hooks);
  registerHostOsTargetHooks(hooks);
  registerVariableHooks(hooks);
  registerMembershipHooks(hooks);
  registerOrganizationMembershipRules(hooks);
  registerTeamHooks(hooks);
  registerUserHooks(hooks);
  registerReleaseHooks(hooks, { registryHost: deps.registryHost });
  registerReleaseAssetHooks(hooks, deps.dataDir);
  registerSshKeyHooks(hooks);
  registerSocialAccountHooks(hooks);
  registerApiKeyHooks(hooks);
  registerInvitationHooks(hooks, deps.invitations);
  registerVerificationHooks(hooks, deps.verification);
  registerBillingHooks(hooks, { billingEnabled: deps.billingEnabled });
  registerFreezingHooks(hooks, { billingEnabled: deps.billingEnabled });
  registerCreditPurchaseHooks(hooks, {
    billingEnabled: deps.billingEnabled,
    provider: deps.paymentProvider ?? manualPaymentProvider,
  });
  registerIdentityProviderHooks(hooks, { billingEnabled: deps.billingEnabled });
  registerAlertRuleHooks(hooks);
  registerAuditLogHooks(hooks);
};
