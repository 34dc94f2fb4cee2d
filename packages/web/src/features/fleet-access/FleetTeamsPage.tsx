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
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { useClient } from '../../api/client.js';
import { polling } from '../../ui/polling.js';
import { useToasts } from '../../ui/toasts.js';
import { usePageTitle } from '../../ui/usePageTitle.js';
import { classLabels } from '../../fleet/class-names.js';
import { DisabledReason } from '../../ui/DisabledReason.js';
import { useFleetContext } from '../../fleet/useFleetContext.js';
import { useFleetRole } from '../../fleet/api-fleet-role.js';
import { useRoleIds } from '../organizations/organization-queries.js';
import { PickListDialog } from '../../ui/PickListDialog.js';
import { runAll } from '../../ui/run-all.js';
import { fleetTeamsQuery, organizationTeamsQuery } from './fleet-access-queries.js';
import { UnauthorisedNotice } from './UnauthorisedNotice.js';
import { fleetKeys } from '../../fleet/query-keys.js';

// /{class}s/:applicationId/teams (seed 001): the teams reaching the fleet with their role (rows
// link to the organization's team page), add team to fleet, change role, remove.
export const FleetTeamsPage = () => {
  const { application } = useFleetContext();
  usePageTitle(`Teams of ${application.app_name}`);
  const noun = classLabels[application.is_of__class].one.toLowerCase();
  const client = useClient();
  const queryClient = useQueryClient();
  const toasts = useToasts();
  const access = useFleetRole(application.id);
  const roles = useRoleIds();
  const organizationId = application.organization[0]?.id ?? 0;
  const [adding, setAdding] = useState(false);
  const canRead = access.can('team_application_access', 'read');
  const teams = useQuery({
    ...fleetTeamsQuery(client, application.id),
    enabled: canRead,
    ...polling(),
  });
  const addDenied = access.denied('team_application_access', 'create');
  const organizationTeams = useQuery({
    ...organizationTeamsQuery(client, organizationId),
    enabled: adding,
  });
  const refresh = () =>
    queryClient.invalidateQueries({ queryKey: fleetKeys.detail(application.id) });
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
                          write.mutate(() =>
                            client.pine.patch({
                              resource: 'team_application_access',
                              id: row.id,
                              body: { application_membership_role: roleId(event.target.value) },
                            }),
                          )
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
                            await client.pine.delete({
                              resource: 'team_application_access',
                              id: row.id,
                            });
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
            client.pine.post({
              resource: 'team_application_access',
              body: {
                team: teamId,
                grants_access_to__application: application.id,
                application_membership_role: roleId(role ?? defaultApplicationMembershipRole),
              },
            }),
          ).finally(refresh)
        }
        onClose={() => setAdding(false)}
      />
    </Stack>
  );
};
