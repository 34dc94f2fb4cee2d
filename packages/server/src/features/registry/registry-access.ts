import type { Actor } from '../../infra/auth/actor.js';
import type { Queryable } from '../../infra/db/database.js';
import { userMayOnFleet } from '../api-keys/api-key-access.js';
import type { RequestedScope } from './registry-scope.js';
import type { GrantedAccess } from './registry-token.js';

// The repository of an image location: what follows the registry host in
// `is_stored_at__image_location` (`<host>/v2/<32 hex>`, features/releases/image-location.ts).
export const imageLocationOf = (registryHost: string, repository: string): string =>
  `${registryHost}/${repository}`;

type ImageRow = { location: string; application: number; device_may_pull: boolean };

// Each location's repository with the fleet that owns it: that of the first image stored there,
// which the server named when that fleet's release was deployed (a client can name a location of
// the operator's registry only for its own fleet, features/releases/image-location-owner.ts).
// For a device: whether it may pull it, the image being of its fleet or part of a release it is
// told to run outside its fleet's releases (pinned, host OS, supervisor).
const imagesAt = async (
  db: Queryable,
  locations: readonly string[],
  deviceId: number | null,
): Promise<ImageRow[]> => {
  const { rows } = await db.query<ImageRow>(
    `WITH "owner" AS (
       SELECT DISTINCT ON (i."is_stored_at__image_location")
              i."is_stored_at__image_location" AS "location", s."application"
         FROM "image" i
         JOIN "service" s ON s."id" = i."is_a_build_of__service"
        WHERE i."is_stored_at__image_location" = ANY($1::text[])
        ORDER BY i."is_stored_at__image_location", i."id"
     )
     SELECT o."location", o."application",
            COALESCE(d."belongs_to__application" = o."application" OR EXISTS (
              SELECT 1 FROM "image" i
                JOIN "service" s ON s."id" = i."is_a_build_of__service"
                JOIN "release_image" ri ON ri."image" = i."id"
               WHERE i."is_stored_at__image_location" = o."location"
                 AND s."application" = o."application"
                 AND ri."is_part_of__release" IN (d."is_pinned_on__release",
                   d."should_be_operated_by__release", d."should_be_managed_by__release")
            ), false) AS "device_may_pull"
       FROM "owner" o
       LEFT JOIN "device" d ON d."id" = $2::integer`,
    [[...locations], deviceId],
  );
  return rows;
};

// The actions the actor may take on each repository, by location: a user pushes and pulls the
// repositories of fleets where the shared permission table lets them create releases; a device pulls
// the images of its fleet's releases and of the releases it is told to run.
const allowedByLocation = async (
  db: Queryable,
  actor: Actor,
  locations: readonly string[],
): Promise<Map<string, readonly string[]>> => {
  const allowed = new Map<string, readonly string[]>();
  if (locations.length === 0) return allowed;
  if (actor.kind === 'device') {
    for (const image of await imagesAt(db, locations, actor.deviceId)) {
      if (image.device_may_pull) allowed.set(image.location, ['pull']);
    }
    return allowed;
  }
  if (actor.kind !== 'user' || actor.twoFactorPending || actor.emailVerificationPending) {
    return allowed;
  }
  const images = await imagesAt(db, locations, null);
  const mayRelease = new Map<number, boolean>();
  for (const image of images) {
    let may = mayRelease.get(image.application);
    if (may === undefined) {
      may = await userMayOnFleet(db, actor.userId, image.application, 'release', 'create');
      mayRelease.set(image.application, may);
    }
    if (may) allowed.set(image.location, ['pull', 'push']);
  }
  return allowed;
};

// The token's `access` claim: one entry per requested scope, holding the requested actions the
// actor may take (none when it may take none: the registry then refuses, as the protocol wants).
export const grantedAccess = async (
  db: Queryable,
  actor: Actor,
  registryHost: string,
  scopes: readonly RequestedScope[],
): Promise<GrantedAccess[]> => {
  const repositories = scopes.filter((scope) => scope.type === 'repository');
  const locations = [
    ...new Set(repositories.map((scope) => imageLocationOf(registryHost, scope.name))),
  ];
  const allowed = await allowedByLocation(db, actor, locations);
  return scopes.map((scope) => {
    const may =
      scope.type === 'repository'
        ? (allowed.get(imageLocationOf(registryHost, scope.name)) ?? [])
        : [];
    return {
      type: scope.type,
      name: scope.name,
      actions: scope.actions.filter((action) => may.includes(action)),
    };
  });
};
