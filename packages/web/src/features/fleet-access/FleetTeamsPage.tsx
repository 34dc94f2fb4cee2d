import {
  applicationMembershipRoles,
  defaultApplicationMembershipRole,
} from '@flotilla/shared/permissions/roles';
import GroupAddIcon from '@mui/icons-material/GroupAdd';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import { useState } from 'react';
import { useToasts } from '../../ui/toasts.js';
import { usePageTitle } from '../../ui/usePageTitle.js';
import { classLabels } from '../../fleet/class-names.js';
import { useFleetContext } from '../../fleet/useFleetContext.js';
import { useFleetRole } from '../../fleet/api-fleet-role.js';
import { PickListDialog } from '../../ui/PickListDialog.js';
import { runAll } from '../../ui/run-all.js';
import {
  useFleetAccessCalls,
  useFleetAccessWrite,
  useFleetRoleId,
  useFleetTeams,
  useOrganizationTeamNames,
  useRefreshFleet,
} from './api.js';
import { UnauthorisedNotice } from './UnauthorisedNotice.js';
import { FleetTeamsTable } from './FleetTeamsTable.js';
import { ListLoadState } from '../../ui/entity-list/ListLoadState.js';
import { FleetAccessHeader } from './FleetAccessHeader.js';

// /{class}s/:fleetId/teams: the teams reaching the fleet with their role (rows
// link to the organization's team page), add team to fleet, change role, remove.
export const FleetTeamsPage = () => {
  const { fleet } = useFleetContext();
  usePageTitle(`Teams of ${fleet.app_name}`);
  const noun = classLabels[fleet.is_of__class].one.toLowerCase();
  const calls = useFleetAccessCalls();
  const toasts = useToasts();
  const access = useFleetRole(fleet.id);
  const organizationId = fleet.organization[0]?.id ?? 0;
  const [adding, setAdding] = useState(false);
  const canRead = access.can('team_application_access', 'read');
  const teams = useFleetTeams(fleet.id, canRead);
  const addDenied = access.denied('team_application_access', 'create');
  const organizationTeams = useOrganizationTeamNames(organizationId, adding);
  const refresh = useRefreshFleet(fleet.id);
  const write = useFleetAccessWrite(fleet.id);
  const roleId = useFleetRoleId();

  if (access.isPending) return <Skeleton variant="rounded" height={200} aria-label="Loading" />;
  if (!canRead) return <UnauthorisedNotice what="teams" className={fleet.is_of__class} />;
  const rows = (teams.data ?? []).flatMap((row) =>
    row.team.map((team) => ({
      id: row.id,
      teamId: team.id,
      name: team.name,
      role: row.application_membership_role[0]?.name ?? 'observer',
    })),
  );
  const reached = new Set(rows.map((row) => row.teamId));
  const changeDenied = access.denied('team_application_access', 'update');
  const removeDenied = access.denied('team_application_access', 'delete');
  return (
    <Stack spacing={3}>
      <FleetAccessHeader
        title="Teams"
        addLabel="Add team"
        addIcon={<GroupAddIcon />}
        addDenied={addDenied}
        onAdd={() => setAdding(true)}
        writeError={write.isError ? write.error : null}
      />
      <ListLoadState
        query={teams}
        failure="Could not load the teams"
        retry
        empty={rows.length === 0 ? `No team reaches this ${noun} yet.` : null}
        emptySx={{ p: 3 }}
      >
        <FleetTeamsTable
          organizationId={organizationId}
          rows={rows}
          busy={write.isPending}
          changeDenied={changeDenied}
          removeDenied={removeDenied}
          onChangeRole={(row, role) => write.mutate(() => calls.setTeamRole(row.id, roleId(role)))}
          onRemove={(row) =>
            write.mutate(async () => {
              await calls.removeTeam(row.id);
              toasts.show('success', `${row.name} no longer reaches this ${noun}`);
            })
          }
        />
      </ListLoadState>
      <PickListDialog
        open={adding}
        title={`Add team to ${noun}`}
        items={(organizationTeams.data ?? [])
          .filter((team) => !reached.has(team.id))
          .map((team) => ({ id: team.id, label: team.name }))}
        emptyText={`Every team of the organization already reaches this ${noun}.`}
        roles={applicationMembershipRoles}
        defaultRole={defaultApplicationMembershipRole}
        submitLabel="Add"
        onSubmit={(ids, role) =>
          runAll(ids, (teamId) =>
            calls.addTeam(fleet.id, teamId, roleId(role ?? defaultApplicationMembershipRole)),
          ).finally(refresh)
        }
        onClose={() => setAdding(false)}
      />
    </Stack>
  );
};
