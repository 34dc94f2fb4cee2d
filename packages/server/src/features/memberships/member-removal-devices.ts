import {
  memberRemovalBlockedMessage,
  usesOwnerCredentials,
} from '@flotilla/shared/devices/owner-credentials';
import type { Queryable } from '../../infra/db/database.js';
import { conflict } from '../../infra/errors/api-error.js';

type OwnedDevice = {
  username: string;
  device_name: string;
  supervisor_version: string | null;
  os_version: string | null;
};

// The rows one write removes; every write that can end a user's access to a fleet names its own.
export type AccessRemoval = {
  organizationMemberships?: readonly number[];
  fleetMemberships?: readonly number[];
  teamMemberships?: readonly number[];
  teamAccesses?: readonly number[];
  teams?: readonly number[];
  // Organization memberships changed to a role other than administrator.
  demotedMemberships?: readonly number[];
};

const refuseWhenOutdated = (devices: readonly OwnedDevice[]): void => {
  const outdated = devices.filter(usesOwnerCredentials);
  const first = outdated[0];
  if (first === undefined) return;
  const mine = outdated.filter((device) => device.username === first.username);
  throw conflict(
    memberRemovalBlockedMessage(
      first.username,
      mine.map((device) => device.device_name),
    ),
  );
};

// "lost": the (user, fleet) pairs whose access goes through a removed row (or a demoted
// administrator's membership). "kept": the accesses
// (the fleet_access view's three sources) that survive the write. A removed organization
// membership ends every access in that organization (its team and fleet memberships go with it).
const ownedDevicesLosingAccess = `
  WITH "lost" AS (
    SELECT om."user", a."id" AS "application"
      FROM "organization_membership" om
      JOIN "application" a ON a."organization" = om."is_member_of__organization"
     WHERE om."id" = ANY($1::integer[])
    UNION
    SELECT uam."user", uam."is_member_of__application"
      FROM "user_application_membership" uam WHERE uam."id" = ANY($2::integer[])
    UNION
    SELECT tm."user", taa."grants_access_to__application"
      FROM "team_membership" tm
      JOIN "team_application_access" taa ON taa."team" = tm."is_member_of__team"
     WHERE tm."id" = ANY($3::integer[]) OR taa."id" = ANY($4::integer[])
        OR tm."is_member_of__team" = ANY($5::integer[])
    UNION
    SELECT om."user", a."id"
      FROM "organization_membership" om
      JOIN "organization_membership_role" r ON r."id" = om."organization_membership_role"
      JOIN "application" a ON a."organization" = om."is_member_of__organization"
     WHERE om."id" = ANY($6::integer[]) AND r."name" = 'administrator'
  ), "kept" AS (
    SELECT om."user", a."id" AS "application"
      FROM "organization_membership" om
      JOIN "organization_membership_role" r ON r."id" = om."organization_membership_role"
      JOIN "application" a ON a."organization" = om."is_member_of__organization"
     WHERE r."name" = 'administrator'
       AND NOT (om."id" = ANY($1::integer[]) OR om."id" = ANY($6::integer[]))
    UNION ALL
    SELECT uam."user", uam."is_member_of__application"
      FROM "user_application_membership" uam WHERE NOT (uam."id" = ANY($2::integer[]))
    UNION ALL
    SELECT tm."user", taa."grants_access_to__application"
      FROM "team_membership" tm
      JOIN "team_application_access" taa ON taa."team" = tm."is_member_of__team"
     WHERE NOT (tm."id" = ANY($3::integer[]) OR taa."id" = ANY($4::integer[])
                OR tm."is_member_of__team" = ANY($5::integer[]))
  )
  SELECT u."username", d."device_name", d."supervisor_version", d."os_version"
    FROM "lost" l
    JOIN "user" u ON u."id" = l."user"
    JOIN "application" a ON a."id" = l."application"
    JOIN "device" d ON d."belongs_to__application" = l."application" AND d."belongs_to__user" = l."user"
   WHERE NOT EXISTS (
           SELECT 1 FROM "kept" k WHERE k."user" = l."user" AND k."application" = l."application")
      OR EXISTS (
           SELECT 1 FROM "organization_membership" om
            WHERE om."id" = ANY($1::integer[]) AND om."user" = l."user"
              AND om."is_member_of__organization" = a."organization")
   ORDER BY u."username", d."device_name"`;

// Removing a member is refused while devices they provisioned in the fleets
// they would lose still run a supervisor or OS too old for per-device keys (they use the member's
// credentials). Runs before the write, inside its transaction.
export const assertAccessRemovable = async (
  tx: Queryable,
  removal: AccessRemoval,
): Promise<void> => {
  const { rows } = await tx.query<OwnedDevice>(ownedDevicesLosingAccess, [
    [...(removal.organizationMemberships ?? [])],
    [...(removal.fleetMemberships ?? [])],
    [...(removal.teamMemberships ?? [])],
    [...(removal.teamAccesses ?? [])],
    [...(removal.teams ?? [])],
    [...(removal.demotedMemberships ?? [])],
  ]);
  refuseWhenOutdated(rows);
};
