import type { ResourceDefinition } from '../model-types.js';
import {
  bigint,
  bool,
  createdAt,
  date,
  id,
  integer,
  json,
  keyValue,
  longText,
  ref,
  shortText,
  text,
} from './field-kinds.js';
import {
  alias,
  applicationOfRelease,
  applicationOfService,
  isPublicApplication,
  lookup,
  q,
} from './sql-helpers.js';

// Prerelease part of raw_version: a draft (not final) release gets its creation time in
// milliseconds appended, so every draft of one semver has a distinct version.
const rawPrerelease = (row: string): string =>
  `(CASE WHEN ${row}."is_final" THEN ${row}."semver_prerelease" ELSE (CASE WHEN ${row}."semver_prerelease" = '' THEN '' ELSE ${row}."semver_prerelease" || '.' END) || floor(extract(epoch FROM ${row}."created_at") * 1000)::bigint::text END)`;

// Build part of raw_version: a final release re-using a semver gets "rev<revision>" appended.
const rawBuild = (row: string): string =>
  `(CASE WHEN ${row}."is_final" AND coalesce(${row}."revision", 0) > 0 THEN (CASE WHEN ${row}."semver_build" = '' THEN '' ELSE ${row}."semver_build" || '.' END) || 'rev' || ${row}."revision"::text ELSE ${row}."semver_build" END)`;

const core = (row: string): string =>
  `${row}."semver_major"::text || '.' || ${row}."semver_minor"::text || '.' || ${row}."semver_patch"::text`;

const withPrefix = (prefix: string, part: string): string =>
  `(CASE WHEN ${part} = '' THEN '' ELSE '${prefix}' || ${part} END)`;

// release.raw_version: e.g. 1.2.3 (final), 1.2.3+rev1 (second final 1.2.3),
// 1.2.3-1700000000000 (draft), 1.2.3-beta.1700000000000+build (draft with prerelease and build).
export const rawVersion = (row: string): string =>
  `(${core(row)} || ${withPrefix('-', rawPrerelease(row))} || ${withPrefix('+', rawBuild(row))})`;

const parts = (part: string): string =>
  `(CASE WHEN ${part} = '' THEN '[]'::jsonb ELSE to_jsonb(string_to_array(${part}, '.')) END)`;

// release.version: the parsed raw_version, shaped like a node-semver SemVer object.
const version = (row: string): string =>
  `jsonb_build_object('raw', ${rawVersion(row)}, 'major', ${row}."semver_major", 'minor', ${row}."semver_minor", 'patch', ${row}."semver_patch", 'prerelease', ${parts(rawPrerelease(row))}, 'build', ${parts(rawBuild(row))}, 'version', ${core(row)} || ${withPrefix('-', rawPrerelease(row))})`;

const fleetOfRelease = (column: string) => ({
  application: (row: string) => applicationOfRelease(`${row}.${q(column)}`, row),
  // Releases of public fleets (host OS, supervisor) are readable by everyone, tags and assets too.
  public: (row: string) =>
    isPublicApplication(applicationOfRelease(`${row}.${q(column)}`, row), row),
});

const applicationOfReleaseImage = (releaseImageIdSql: string, row: string): string =>
  applicationOfRelease(
    lookup('release_image', 'is_part_of__release', releaseImageIdSql, alias('ri', row)),
    row,
  );

// Releases and what they are made of: images of the fleet's services, tags, assets and labels.
export const releaseResources: Record<string, ResourceDefinition> = {
  release: {
    alternateKeys: [['belongs_to__application', 'commit']],
    fields: {
      id,
      created_at: createdAt,
      belongs_to__application: ref('application', 'owns__release', {
        required: true,
        createOnly: true,
      }),
      commit: text({ required: true, createOnly: true }),
      composition: json(),
      status: text({ required: true }),
      source: text({ required: true }),
      build_log: longText(),
      is_invalidated: bool(),
      start_timestamp: date(),
      end_timestamp: date(),
      update_timestamp: date(),
      release_version: text(),
      contract: json(),
      is_passing_tests: bool(),
      is_finalized_at__date: date({ readOnly: true }),
      phase: text(),
      // Stored (the SDK finalizes by PATCHing it to true); default true.
      is_final: bool(),
      // semver and its parts are kept in step by a trigger: write either (see 0001-schema.sql).
      semver: text(),
      semver_major: integer(),
      semver_minor: integer(),
      semver_patch: integer(),
      semver_prerelease: text(),
      semver_build: text(),
      variant: text(),
      // Assigned when a release is finalized on a semver an earlier final release already has.
      revision: integer({ readOnly: true }),
      raw_version: text({ computed: rawVersion }),
      version: json({ computed: version }),
      known_issue_list: text(),
      note: text(),
      invalidation_reason: text(),
      is_created_by__user: ref('user', 'creates__release', { createOnly: true }),
    },
    scope: {
      application: (row) => `${row}."belongs_to__application"`,
      public: (row) => isPublicApplication(`${row}."belongs_to__application"`, row),
    },
  },
  release_tag: {
    alternateKeys: [['release', 'tag_key']],
    fields: {
      id,
      release: ref('release', ['release__has__tag_key', 'release_tag'], {
        required: true,
        createOnly: true,
      }),
      ...keyValue('tag_key'),
    },
    scope: fleetOfRelease('release'),
  },
  release_asset: {
    alternateKeys: [['release', 'asset_key']],
    fields: {
      id,
      release: ref('release', ['release__has__asset_key', 'release_asset'], {
        required: true,
        createOnly: true,
      }),
      asset_key: text({ required: true }),
      asset: json(),
    },
    scope: fleetOfRelease('release'),
  },
  service: {
    alternateKeys: [['application', 'service_name']],
    fields: {
      id,
      created_at: createdAt,
      application: ref('application', ['application__has__service_name', 'service'], {
        required: true,
        createOnly: true,
      }),
      service_name: shortText({ required: true, createOnly: true }),
    },
    scope: { application: (row) => `${row}."application"` },
  },
  service_label: {
    alternateKeys: [['service', 'label_name']],
    fields: {
      id,
      created_at: createdAt,
      service: ref(
        'service',
        [
          'application__has__service_name__has__label_name',
          'service__has__label_name',
          'service_label',
        ],
        { required: true, createOnly: true },
      ),
      ...keyValue('label_name'),
    },
    synonyms: { application__has__service_name: 'service' },
    scope: { application: (row) => applicationOfService(`${row}."service"`, row) },
  },
  image: {
    fields: {
      id,
      created_at: createdAt,
      start_timestamp: date(),
      end_timestamp: date(),
      dockerfile: longText(),
      is_a_build_of__service: ref('service', 'is_built_by__image', {
        required: true,
        createOnly: true,
      }),
      image_size: bigint(),
      // Filled by the release hooks when a client leaves it out (balena-cli does).
      is_stored_at__image_location: text({ createOnly: true }),
      project_type: text(),
      error_message: text(),
      build_log: longText(),
      push_timestamp: date(),
      status: text({ required: true }),
      content_hash: text(),
      contract: json(),
    },
    synonyms: { is_a_build_of__application__has__service_name: 'is_a_build_of__service' },
    scope: {
      application: (row) => applicationOfService(`${row}."is_a_build_of__service"`, row),
      // A public fleet's images (a host OS or supervisor release's updater) are readable by all.
      public: (row) =>
        isPublicApplication(applicationOfService(`${row}."is_a_build_of__service"`, row), row),
    },
  },
  release_image: {
    alternateKeys: [['image', 'is_part_of__release']],
    fields: {
      id,
      created_at: createdAt,
      image: ref('image', ['is_part_of__release', 'image__is_part_of__release', 'release_image'], {
        required: true,
        createOnly: true,
      }),
      is_part_of__release: ref(
        'release',
        ['image__is_part_of__release', 'release_image', 'contains__image'],
        { required: true, createOnly: true },
      ),
    },
    synonyms: { release: 'is_part_of__release', contains__image: 'image' },
    scope: {
      application: (row) => applicationOfRelease(`${row}."is_part_of__release"`, row),
      public: (row) =>
        isPublicApplication(applicationOfRelease(`${row}."is_part_of__release"`, row), row),
    },
  },
  image_label: {
    alternateKeys: [['release_image', 'label_name']],
    fields: {
      id,
      created_at: createdAt,
      release_image: ref(
        'release_image',
        [
          'image__is_part_of__release__has__label_name',
          'release_image__has__label_name',
          'image_label',
        ],
        { required: true, createOnly: true },
      ),
      ...keyValue('label_name'),
    },
    synonyms: { image__is_part_of__release: 'release_image' },
    scope: { application: (row) => applicationOfReleaseImage(`${row}."release_image"`, row) },
  },
  image_environment_variable: {
    alternateKeys: [['release_image', 'name']],
    fields: {
      id,
      created_at: createdAt,
      release_image: ref(
        'release_image',
        [
          'image__is_part_of__release__has__name',
          'release_image__has__name',
          'image_environment_variable',
        ],
        { required: true, createOnly: true },
      ),
      ...keyValue('name'),
    },
    synonyms: { image__is_part_of__release: 'release_image' },
    scope: { application: (row) => applicationOfReleaseImage(`${row}."release_image"`, row) },
  },
};
