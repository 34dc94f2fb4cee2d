import type { UserApplicationMembership } from './application-membership.js';
import type { ApplicationType } from './application-type.js';
import type { ApplicationInvite } from './invite.js';
import type { TeamApplicationAccess } from './team.js';
import type { Device } from './device.js';
import type { Service } from './device-state.js';
import type { DeviceType } from './device-type.js';
import type { DateTime, OptionalToOne, ToOne } from './field-types.js';
import type { Organization } from './organization.js';
import type { Release } from './release.js';
import type { User } from './user.js';

// v7 application: a fleet, an app or a block (is_of__class).
export type ApplicationClass = 'fleet' | 'app' | 'block';

export type Application = {
  id: number;
  created_at: DateTime;
  actor: ToOne<{ id: number }>;
  app_name: string;
  slug: string;
  uuid: string;
  is_of__class: ApplicationClass;
  organization: ToOne<Organization>;
  is_for__device_type: ToOne<DeviceType>;
  should_track_latest_release: boolean;
  should_be_running__release: OptionalToOne<Release>;
  application_type: ToOne<ApplicationType>;
  is_host: boolean;
  is_archived: boolean;
  is_public: boolean;
  is_discoverable: boolean;
  is_accessible_by_support_until__date: DateTime | null;
  is_stored_at__repository_url: string | null;
  // Reverse navigations, present only when expanded.
  owns__device?: Device[];
  owns__release?: Release[];
  is_directly_accessible_by__user?: User[];
  service?: Service[];
  user_application_membership?: UserApplicationMembership[];
  team_application_access?: TeamApplicationAccess[];
  application_invite?: ApplicationInvite[];
};

export type ApplicationWrite = {
  app_name: string;
  slug: string;
  uuid: string;
  is_of__class: ApplicationClass;
  organization: number;
  is_for__device_type: number;
  should_track_latest_release: boolean;
  should_be_running__release: number | null;
  application_type: number;
  is_archived: boolean;
  is_public: boolean;
  is_accessible_by_support_until__date: DateTime | null;
  is_stored_at__repository_url: string | null;
};
