import type { FlotillaAlert, FlotillaAlertRule, FlotillaAlertRuleWrite } from './alert-rule.js';
import type { ApiKey, ApiKeyWrite } from './api-key.js';
import type { Application, ApplicationWrite } from './application.js';
import type {
  ApplicationMembershipRole,
  UserApplicationMembership,
  UserApplicationMembershipWrite,
} from './application-membership.js';
import type { ApplicationTag } from './application-tag.js';
import type { ApplicationType } from './application-type.js';
import type {
  CreditBundle,
  CreditBundleWrite,
  Feature,
  OrganizationCreditNotification,
  OrganizationCreditNotificationWrite,
} from './credit.js';
import type { Device, DeviceWrite } from './device.js';
import type {
  DeviceConfigVariable,
  DeviceTag,
  DeviceTagWrite,
  Image,
  ImageInstall,
  Service,
} from './device-state.js';
import type { CpuArchitecture, DeviceType } from './device-type.js';
import type {
  ApplicationInvite,
  ApplicationInviteWrite,
  Invitee,
  OrganizationInvite,
  OrganizationInviteWrite,
} from './invite.js';
import type {
  IdentityProvider,
  IdentityProviderMembership,
  IdentityProviderMembershipWrite,
  IdentityProviderWrite,
} from './identity-provider.js';
import type { OAuthApplication, OAuthApplicationAuthorization } from './oauth-application.js';
import type { Organization, OrganizationWrite } from './organization.js';
import type {
  OrganizationMembership,
  OrganizationMembershipRole,
  OrganizationMembershipWrite,
} from './organization-membership.js';
import type {
  Release,
  ReleaseAsset,
  ReleaseTag,
  ReleaseTagWrite,
  ReleaseWrite,
} from './release.js';
import type {
  Team,
  TeamApplicationAccess,
  TeamApplicationAccessWrite,
  TeamMembership,
  TeamMembershipWrite,
  TeamWrite,
} from './team.js';
import type {
  FlotillaRollout,
  FlotillaRolloutDevice,
  FlotillaRolloutEvent,
  FlotillaRolloutWave,
} from './rollout.js';
import type { RecoveryTwoFactor, SamlAccount, SocialServiceAccount, User } from './user.js';
import type { UserProfile } from './user-profile.js';
import type { UserPublicKey, UserPublicKeyWrite } from './user-public-key.js';
import type {
  ApplicationConfigVariable,
  ApplicationEnvironmentVariable,
  ApplicationVariableWrite,
  DeviceEnvironmentVariable,
  DeviceServiceEnvironmentVariable,
  DeviceServiceVariableWrite,
  DeviceVariableWrite,
  ServiceEnvironmentVariable,
  ServiceInstall,
  ServiceVariableWrite,
} from './variables.js';

// Read-only through the console: nothing to write.
type NoWrite = Record<never, never>;

// The v7 resources the typed client knows, in pinejs-client-core's shape: `get` infers each
// answer's type from the query's $select and $expand, so callers never name (or cast) rows.
export type V7Model = {
  api_key: { Read: ApiKey; Write: ApiKeyWrite };
  application: { Read: Application; Write: ApplicationWrite };
  application_config_variable: { Read: ApplicationConfigVariable; Write: ApplicationVariableWrite };
  application_environment_variable: {
    Read: ApplicationEnvironmentVariable;
    Write: ApplicationVariableWrite;
  };
  application_membership_role: { Read: ApplicationMembershipRole; Write: NoWrite };
  application_tag: { Read: ApplicationTag; Write: NoWrite };
  application_type: { Read: ApplicationType; Write: NoWrite };
  cpu_architecture: { Read: CpuArchitecture; Write: NoWrite };
  credit_bundle: { Read: CreditBundle; Write: CreditBundleWrite };
  device: { Read: Device; Write: DeviceWrite };
  device_config_variable: { Read: DeviceConfigVariable; Write: DeviceVariableWrite };
  device_environment_variable: { Read: DeviceEnvironmentVariable; Write: DeviceVariableWrite };
  device_service_environment_variable: {
    Read: DeviceServiceEnvironmentVariable;
    Write: DeviceServiceVariableWrite;
  };
  device_tag: { Read: DeviceTag; Write: DeviceTagWrite };
  device_type: { Read: DeviceType; Write: NoWrite };
  feature: { Read: Feature; Write: NoWrite };
  // Flotilla's own resources (alert rules and the alerts they raise).
  flotilla_alert: { Read: FlotillaAlert; Write: NoWrite };
  flotilla_alert_rule: { Read: FlotillaAlertRule; Write: FlotillaAlertRuleWrite };
  // Staged rollouts, read only (their decisions are /rollouts/v1 routes).
  flotilla_rollout: { Read: FlotillaRollout; Write: NoWrite };
  flotilla_rollout_device: { Read: FlotillaRolloutDevice; Write: NoWrite };
  flotilla_rollout_event: { Read: FlotillaRolloutEvent; Write: NoWrite };
  flotilla_rollout_wave: { Read: FlotillaRolloutWave; Write: NoWrite };
  identity_provider: { Read: IdentityProvider; Write: IdentityProviderWrite };
  identity_provider_membership: {
    Read: IdentityProviderMembership;
    Write: IdentityProviderMembershipWrite;
  };
  image: { Read: Image; Write: NoWrite };
  image_install: { Read: ImageInstall; Write: NoWrite };
  invitee: { Read: Invitee; Write: NoWrite };
  invitee__is_invited_to__application: { Read: ApplicationInvite; Write: ApplicationInviteWrite };
  invitee__is_invited_to__organization: {
    Read: OrganizationInvite;
    Write: OrganizationInviteWrite;
  };
  oauth_application: { Read: OAuthApplication; Write: NoWrite };
  oauth_application_authorization: { Read: OAuthApplicationAuthorization; Write: NoWrite };
  organization: { Read: Organization; Write: OrganizationWrite };
  organization_credit_notification: {
    Read: OrganizationCreditNotification;
    Write: OrganizationCreditNotificationWrite;
  };
  organization_membership: { Read: OrganizationMembership; Write: OrganizationMembershipWrite };
  organization_membership_role: { Read: OrganizationMembershipRole; Write: NoWrite };
  recovery_two_factor: { Read: RecoveryTwoFactor; Write: NoWrite };
  release: { Read: Release; Write: ReleaseWrite };
  release_asset: { Read: ReleaseAsset; Write: NoWrite };
  release_tag: { Read: ReleaseTag; Write: ReleaseTagWrite };
  saml_account: { Read: SamlAccount; Write: NoWrite };
  service: { Read: Service; Write: NoWrite };
  social_service_account: { Read: SocialServiceAccount; Write: NoWrite };
  service_environment_variable: { Read: ServiceEnvironmentVariable; Write: ServiceVariableWrite };
  service_install: { Read: ServiceInstall; Write: NoWrite };
  team: { Read: Team; Write: TeamWrite };
  team_application_access: { Read: TeamApplicationAccess; Write: TeamApplicationAccessWrite };
  team_membership: { Read: TeamMembership; Write: TeamMembershipWrite };
  user: { Read: User; Write: NoWrite };
  user_application_membership: {
    Read: UserApplicationMembership;
    Write: UserApplicationMembershipWrite;
  };
  user_profile: { Read: UserProfile; Write: NoWrite };
  user__has__public_key: { Read: UserPublicKey; Write: UserPublicKeyWrite };
};

export type V7Resource = keyof V7Model;
