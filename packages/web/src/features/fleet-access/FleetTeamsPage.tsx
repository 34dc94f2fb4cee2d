import { errorText } from '@flotilla/sdk/errors';
import { roleLabel } from '@flotilla/shared/permissions/role-labels';
import {
  applicationMembershipRoles,
  defaultApplicationMembershipRole,
} from '@flotilla/shared/permissions/roles';
import GroupAddIcon from '@mui/icons-material/GroupAdd';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { useToasts } from '../../ui/toasts.js';
import { usePageTitle } from '../../ui/usePageTitle.js';
import { classLabels } from '../../fleet/class-names.js';
import { DisabledReason } from '../../ui/DisabledReason.js';
import { useFleetContext } from '../../fleet/useFleetContext.js';
import { useFleetRole } from '../../fleet/api-fleet-role.js';
import { useRoleIds } from '../organizations/api-organizations.js';
import { PickListDialog } from '../../ui/PickListDialog.js';
import { runAll } from '../../ui/run-all.js';
import {
  useFleetAccessCalls,
  useFleetTeams,
  useOrganizationTeamNames,
  useRefreshFleet,
} from './api.js';
import { UnauthorisedNotice } from './UnauthorisedNotice.js';

// /{class}s/:applicationId/teams: the teams reaching the fleet with their role (rows
// link to the organization's team page), add team to fleet, change role, remove.
export const FleetTeamsPage = () => {
  const { application } = useFleetContext();
  usePageTitle(`Teams of ${application.app_name}`);
  const noun = classLabels[application.is_of__class].one.toLowerCase();
  const calls = useFleetAccessCalls();
  const toasts = useToasts();
  const access = useFleetRole(application.id);
  const roles = useRoleIds();
  const organizationId = application.organization[0]?.id ?? 0;
  const [adding, setAdding] = useState(false);
  const canRead = access.can('team_application_access', 'read');
  const teams = useFleetTeams(application.id, canRead);
  const addDenied = access.denied('team_application_access', 'create');
  const organizationTeams = useOrganizationTeamNames(organizationId, adding);
  const refresh = useRefreshFleet(application.id);
  const write = useMutation({
    mutationFn: (work: () => Promise<unknown>) => work(),
    onSettled: refresh,
    // The page shows the failure above its tables; no toast as well.
    meta: { inlineError: true },
  });
  const roleId = (role: string): number => {
    const id = roles.data?.application.get(role);
    if (id === undefined) throw new Error(`Role ${role} not found`);
    return id;
  };

  if (access.isPending) return <Skeleton variant="rounded" height={200} aria-label="Loading" />;
  if (!canRead) return <UnauthorisedNotice what="teams" className={application.is_of__class} />;
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
      <Stack direction="row" sx={{ alignItems: 'center' }}>
        <Typography variant="h2" sx={{ flexGrow: 1 }}>
          Teams
        </Typography>
        <DisabledReason reason={addDenied}>
          <Button
            variant="contained"
            startIcon={<GroupAddIcon />}
            disabled={addDenied !== null}
            onClick={() => setAdding(true)}
          >
            Add team
          </Button>
        </DisabledReason>
      </Stack>
      {write.isError ? (
        <Alert severity="error">{errorText(write.error) ?? 'Could not save'}</Alert>
      ) : null}
      {teams.isPending ? (
        <Skeleton variant="rounded" height={160} aria-label="Loading" />
      ) : teams.isError ? (
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => void teams.refetch()}>
              Retry
            </Button>
          }
        >
          {errorText(teams.error) ?? 'Could not load the teams'}
        </Alert>
      ) : rows.length === 0 ? (
        <Paper variant="outlined" sx={{ p: 3 }}>
          <Typography color="text.secondary">No team reaches this {noun} yet.</Typography>
        </Paper>
      ) : (
        <Paper variant="outlined">
          <Table aria-label="Teams">
            <TableHead>
              <TableRow>
                <TableCell>Team</TableCell>
                <TableCell>Role</TableCell>
                <TableCell align="right">Actions</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((row) => (
                <TableRow key={row.id} hover>
                  <TableCell>
                    <Link component={RouterLink} to={`/orgs/${organizationId}/teams/${row.teamId}`}>
                      {row.name}
                    </Link>
                  </TableCell>
                  <TableCell>
                    <DisabledReason reason={changeDenied}>
                      <TextField
                        select
                        size="small"
                        value={row.role}
                        disabled={changeDenied !== null || write.isPending}
                        onChange={(event) =>
                          write.mutate(() => calls.setTeamRole(row.id, roleId(event.target.value)))
                        }
                        slotProps={{ htmlInput: { 'aria-label': `Role of ${row.name}` } }}
                      >
                        {applicationMembershipRoles.map((role) => (
                          <MenuItem key={role} value={role}>
                            {roleLabel(role)}
                          </MenuItem>
                        ))}
                      </TextField>
                    </DisabledReason>
                  </TableCell>
                  <TableCell align="right">
                    <DisabledReason reason={removeDenied}>
                      <Button
                        size="small"
                        color="error"
                        disabled={removeDenied !== null || write.isPending}
                        onClick={() =>
                          write.mutate(async () => {
                            await calls.removeTeam(row.id);
                            toasts.show('success', `${row.name} no longer reaches this ${noun}`);
                          })
                        }
                      >
                        Remove
                      </Button>
                    </DisabledReason>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Paper>
      )}
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
            calls.addTeam(application.id, teamId, roleId(role ?? defaultApplicationMembershipRole)),
          ).finally(refresh)
        }
        onClose={() => setAdding(false)}
      />
    </Stack>
  );
};
