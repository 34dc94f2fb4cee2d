import type { FlotillaClient } from '@flotilla/sdk/create-client';
import { useQuery } from '@tanstack/react-query';
import { useClient } from '../../api/client.js';
import { useSession } from '../../api/session/useSession.js';
import { type MoveData, moveMessages, moveOptions } from './move-targets.js';
import { devicesKeys } from './query-keys.js';

const slugOf = (rows: readonly { slug: string }[]): string => rows[0]?.slug ?? '';

// The fleets the user sees, their roles on them and the CPU architecture of each device type.
const fetchMoveData = async (
  client: FlotillaClient,
  userId: number,
  deviceTypes: readonly string[],
): Promise<MoveData> => {
  const [fleets, direct, teams, organizations, types] = await Promise.all([
    client.pine.get({
      resource: 'application',
      options: {
        $select: ['id', 'app_name', 'slug', 'organization'],
        $filter: {
          is_of__class: 'fleet',
          is_directly_accessible_by__user: { $any: { $alias: 'dau', $expr: { 1: 1 } } },
        },
        $expand: {
          is_for__device_type: {
            $select: ['slug'],
            $expand: { is_of__cpu_architecture: { $select: ['slug'] } },
          },
        },
        $orderby: { app_name: 'asc' },
      },
    }),
    client.pine.get({
      resource: 'user_application_membership',
      options: {
        $select: ['is_member_of__application'],
        $filter: { user: userId },
        $expand: { application_membership_role: { $select: ['name'] } },
      },
    }),
    client.pine.get({
      resource: 'team_application_access',
      options: {
        $select: ['grants_access_to__application'],
        $filter: {
          team: {
            $any: {
              $alias: 't',
              $expr: {
                t: { team_membership: { $any: { $alias: 'tm', $expr: { tm: { user: userId } } } } },
              },
            },
          },
        },
        $expand: { application_membership_role: { $select: ['name'] } },
      },
    }),
    client.pine.get({
      resource: 'organization_membership',
      options: {
        $select: ['is_member_of__organization'],
        $filter: { user: userId },
        $expand: { organization_membership_role: { $select: ['name'] } },
      },
    }),
    client.pine.get({
      resource: 'device_type',
      options: {
        $select: ['slug'],
        $filter: { slug: { $in: [...deviceTypes] } },
        $expand: { is_of__cpu_architecture: { $select: ['slug'] } },
      },
    }),
  ]);
  return {
    fleets: fleets.map((fleet) => ({
      id: fleet.id,
      app_name: fleet.app_name,
      slug: fleet.slug,
      organizationId: fleet.organization.__id,
      architecture: slugOf(
        fleet.is_for__device_type.flatMap((type) => type.is_of__cpu_architecture),
      ),
    })),
    memberships: {
      fleetMemberships: direct.flatMap((row) =>
        row.application_membership_role.map((role) => ({
          fleetId: row.is_member_of__application.__id,
          role: role.name,
        })),
      ),
      teamAccesses: teams.flatMap((row) =>
        row.application_membership_role.map((role) => ({
          fleetId: row.grants_access_to__application.__id,
          role: role.name,
        })),
      ),
      organizationMemberships: organizations.flatMap((row) =>
        row.organization_membership_role.map((role) => ({
          organizationId: row.is_member_of__organization.__id,
          role: role.name,
        })),
      ),
    },
    architectures: Object.fromEntries(
      types.map((type) => [type.slug, slugOf(type.is_of__cpu_architecture)]),
    ),
  };
};

type MovingDevice = { deviceType: string; fleetId: number };

// The fleets the user sees, with what the move rules need; shared by the fleet picker and the
// Action menu (one cached answer per device-type set).
export const useMoveData = (deviceTypes: readonly string[], enabled = true) => {
  const client = useClient();
  const userId = useSession()?.userId ?? 0;
  const types = [...new Set(deviceTypes)].sort();
  return useQuery({
    queryKey: devicesKeys.moveTargets(userId, types),
    queryFn: () => fetchMoveData(client, userId, types),
    enabled: enabled && userId > 0,
  });
};

// Why "Move device" cannot run on these devices: no fleet takes them ("No applications with
// compatible arch"). Null while unknown (not asked yet, loading, failed):
// the dialog then says what it finds.
export const useMoveBlock = (devices: readonly MovingDevice[], enabled: boolean): string | null => {
  const data = useMoveData(
    devices.map((device) => device.deviceType),
    enabled && devices.length > 0,
  );
  if (!enabled || !data.data || devices.length === 0) return null;
  const anyTarget = moveOptions(data.data, devices).some((option) => option.block === null);
  return anyTarget ? null : moveMessages.noTargets;
};
