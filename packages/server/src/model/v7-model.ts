import { buildModel } from './build-model.js';
import { alertResources } from './definitions/alerts.js';
import { apiKeyResources } from './definitions/api-keys.js';
import { billingResources } from './definitions/billing.js';
import { deviceTypeResources } from './definitions/device-types.js';
import { deviceResources } from './definitions/devices.js';
import { fleetResources } from './definitions/fleets.js';
import { identityProviderResources } from './definitions/identity-providers.js';
import { inviteResources } from './definitions/invites.js';
import { oauthResources } from './definitions/oauth.js';
import { organizationResources } from './definitions/organizations.js';
import { releaseResources } from './definitions/releases.js';
import { rolloutResources } from './definitions/rollouts.js';
import { teamResources } from './definitions/teams.js';
import { userResources } from './definitions/users.js';
import { variableResources } from './definitions/variables.js';

export const v7Definitions = {
  ...userResources,
  ...apiKeyResources,
  ...organizationResources,
  ...teamResources,
  ...inviteResources,
  ...identityProviderResources,
  ...oauthResources,
  ...billingResources,
  ...deviceTypeResources,
  ...fleetResources,
  ...deviceResources,
  ...variableResources,
  ...releaseResources,
  ...alertResources,
  ...rolloutResources,
};

// Other v7 names of the same resources (alias -> resource): balena serves every resource under
// its verb-phrase name and a short synonym. The model keys resources by the name the SDK uses;
// the router should resolve these aliases to the same resource (and table).
export const v7ResourceSynonyms: Readonly<Record<string, string>> = {
  application__has__env_var_name: 'application_environment_variable',
  application__has__config_var_name: 'application_config_variable',
  application__has__build_var_name: 'build_environment_variable',
  application__has__service_name: 'service',
  application__has__service_name__has__label_name: 'service_label',
  application__has__service_name__has__name: 'service_environment_variable',
  application__has__tag_key: 'application_tag',
  device__has__env_var_name: 'device_environment_variable',
  device__has__config_var_name: 'device_config_variable',
  device__has__tag_key: 'device_tag',
  device__installs__image: 'image_install',
  device__installs__application__has__service_name: 'service_install',
  device__installs__application__has__service_name__has__name:
    'device_service_environment_variable',
  release__has__tag_key: 'release_tag',
  release__has__asset_key: 'release_asset',
  image__is_part_of__release: 'release_image',
  image__is_part_of__release__has__label_name: 'image_label',
  image__is_part_of__release__has__name: 'image_environment_variable',
  user__is_member_of__organization: 'organization_membership',
  user__is_member_of__organization__has__tag_key: 'organization_membership_tag',
  user__is_member_of__team: 'team_membership',
  user__is_member_of__application: 'user_application_membership',
  team__grants_access_to__application: 'team_application_access',
  user_public_key: 'user__has__public_key',
  device_type__is_referenced_by__alias: 'device_type_alias',
  application_invite: 'invitee__is_invited_to__application',
  organization_invite: 'invitee__is_invited_to__organization',
  organization__is_authorized_by__identity_provider: 'identity_provider_membership',
  organization__owns_credit_notification_for__feature: 'organization_credit_notification',
};

export const v7Model = buildModel(v7Definitions, v7ResourceSynonyms);
