import type { Application } from './application.js';
import type { Device } from './device.js';
import type { ReleaseImage } from './device-state.js';
import type { DateTime, JsonObject, OptionalToOne, ToOne } from './field-types.js';
import type { User } from './user.js';

export type ReleasePhase = 'next' | 'current' | 'sunset' | 'end-of-life';

// v7 release.
export type Release = {
  id: number;
  created_at: DateTime;
  belongs_to__application: ToOne<Application>;
  commit: string;
  composition: JsonObject | null;
  status: string;
  source: string;
  build_log: string | null;
  is_invalidated: boolean;
  start_timestamp: DateTime;
  end_timestamp: DateTime | null;
  update_timestamp: DateTime;
  release_version: string | null;
  contract: JsonObject | null;
  is_passing_tests: boolean;
  is_finalized_at__date: DateTime | null;
  phase: ReleasePhase | null;
  is_final: boolean;
  semver: string;
  semver_major: number;
  semver_minor: number;
  semver_patch: number;
  semver_prerelease: string;
  semver_build: string;
  variant: string;
  revision: number | null;
  raw_version: string;
  version: JsonObject;
  known_issue_list: string | null;
  note: string | null;
  invalidation_reason: string | null;
  is_created_by__user: OptionalToOne<User>;
  // Reverse navigations, present only when expanded.
  is_running_on__device?: Device[];
  is_pinned_to__device?: Device[];
  should_be_running_on__application?: Application[];
  release_tag?: ReleaseTag[];
  release_image?: ReleaseImage[];
  release_asset?: ReleaseAsset[];
};

// v7 release_asset: a file attached to a release (balena-sdk release.asset.upload); `asset` is
// null until a file is uploaded, its href a download address for who may read the release.
export type ReleaseAsset = {
  id: number;
  release: ToOne<Release>;
  asset_key: string;
  asset: { filename: string; content_type: string; size: number; href: string } | null;
};

// v7 release_tag.
export type ReleaseTag = {
  id: number;
  release: ToOne<Release>;
  tag_key: string;
  value: string;
};

export type ReleaseTagWrite = { release: number; tag_key: string; value: string };

// What the console may change on a release.
export type ReleaseWrite = {
  note: string | null;
  known_issue_list: string | null;
  is_invalidated: boolean;
  invalidation_reason: string | null;
  is_passing_tests: boolean;
  release_version: string | null;
  is_final: boolean;
  semver: string;
  variant: string;
  phase: ReleasePhase | null;
  // Cancelling a running build (the server's builder stops it), as balena-cli does on Ctrl-C.
  status: 'cancelled';
  end_timestamp: string;
};
