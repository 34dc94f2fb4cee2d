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

// Seed 001 section 5: removing a member is refused while devices they provisioned in the fleets
// they would lose still run a supervisor or OS too old for per-device keys (they use the member's
// credentials). Removing an organization membership ends every fleet access in that organization.
export const assertOrganizationMembersRemovable = async (
  tx: Queryable,
  membershipIds: readonly number[],
): Promise<void> => {
  const { rows } = await tx.query<OwnedDevice>(
    `SELECT u."username", d."device_name", d."supervisor_version", d."os_version"
       FROM "organization_membership" om
       JOIN "user" u ON u."id" = om."user"
       JOIN "application" a ON a."organization" = om."is_member_of__organization"
       JOIN "device" d ON d."belongs_to__application" = a."id" AND d."belongs_to__user" = om."user"
      WHERE om."id" = ANY($1::integer[])
      ORDER BY u."username", d."device_name"`,
    [[...membershipIds]],
  );
  refuseWhenOutdated(rows);
};

// A direct fleet membership's removal ends the fleet access unless the member keeps it as an
// organization administrator or through a team.
export const assertFleetMembersRemovable = async (
  tx: Queryable,
  membershipIds: readonly number[],
): Promise<void> => {
  const { rows } = await tx.query<OwnedDevice>(
    `SELECT u."username", d."device_name", d."supervisor_version", d."os_version"
       FROM "user_application_membership" uam
       JOIN "user" u ON u."id" = uam."user"
       JOIN "application" a ON a."id" = uam."is_member_of__application"
       JOIN "device" d ON d."belongs_to__application" = a."id" AND d."belongs_to__user" = uam."user"
      WHERE uam."id" = ANY($1::integer[])
        AND NOT EXISTS (
          SELECT 1 FROM "organization_membership" om
            JOIN "organization_membership_role" r ON r."id" = om."organization_membership_role"
           WHERE om."user" = uam."user" AND om."is_member_of__organization" = a."organization"
             AND r."name" = 'administrator')
        AND NOT EXISTS (
          SELECT 1 FROM "team_membership" tm
            JOIN "team_application_access" taa ON taa."team" = tm."is_member_of__team"
           WHERE tm."user" = uam."user" AND taa."grants_access_to__application" = a."id")
      ORDER BY u."username", d."device_name"`,
    [[...membershipIds]],
  );
  refuseWhenOutdated(rows);
};
