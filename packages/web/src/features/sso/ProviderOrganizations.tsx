import { errorText } from '@flotilla/sdk/errors';
import { identityProviderMessages } from '@flotilla/shared/sso/identity-provider-rules';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import {
  type Provider,
  useAdministeredOrganizations,
  useDefaultTeam,
  useDetachOrganization,
} from './api-providers.js';
import { AttachOrganizationsDialog } from './AttachOrganizationsDialog.js';

// The organizations a provider serves, the team its users join in each, and their removal (never
// the last one).
export const ProviderOrganizations = ({ provider }: { provider: Provider }) => {
  const memberships = provider.identity_provider_membership ?? [];
  const organizations = useAdministeredOrganizations();
  const defaultTeam = useDefaultTeam();
  const detach = useDetachOrganization();
  const [attaching, setAttaching] = useState(false);
  const teamsOf = (organizationId: number) =>
    organizations.data?.find((organization) => organization.id === organizationId)?.owns__team ??
    [];
  const failed = defaultTeam.error ?? detach.error;
  return (
    <Stack spacing={1}>
      <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center' }}>
        <Typography variant="h2" sx={{ fontSize: '1.25rem' }}>
          Organizations
        </Typography>
        <Button onClick={() => setAttaching(true)}>Add organizations</Button>
      </Stack>
      {failed ? <Alert severity="error">{errorText(failed) ?? 'Could not save'}</Alert> : null}
      <Table size="small" aria-label="Organizations">
        <TableHead>
          <TableRow>
            <TableCell>Organization</TableCell>
            <TableCell>Default team</TableCell>
            <TableCell />
          </TableRow>
        </TableHead>
        <TableBody>
          {memberships.map((membership) => {
            const organization = membership.organization[0];
            const team = membership.grants_access_to__team?.[0];
            const teams = teamsOf(organization?.id ?? 0);
            const last = memberships.length === 1;
            return (
              <TableRow key={membership.id}>
                <TableCell>{organization?.name ?? '—'}</TableCell>
                <TableCell>
                  <TextField
                    select
                    size="small"
                    label="Default team"
                    value={team?.id ?? ''}
                    disabled={defaultTeam.isPending}
                    sx={{ minWidth: 180 }}
                    onChange={(event) =>
                      defaultTeam.mutate({
                        membershipId: membership.id,
                        teamId: event.target.value === '' ? null : Number(event.target.value),
                      })
                    }
                  >
                    <MenuItem value="">No team</MenuItem>
                    {team && !teams.some((other) => other.id === team.id) ? (
                      <MenuItem value={team.id}>{team.name}</MenuItem>
                    ) : null}
                    {teams.map((other) => (
                      <MenuItem key={other.id} value={other.id}>
                        {other.name}
                      </MenuItem>
                    ))}
                  </TextField>
                </TableCell>
                <TableCell align="right">
                  <Tooltip title={last ? identityProviderMessages.lastOrganization : ''}>
                    <span>
                      <Button
                        color="error"
                        disabled={last || detach.isPending}
                        onClick={() => detach.mutate(membership.id)}
                      >
                        Remove
                      </Button>
                    </span>
                  </Tooltip>
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
      {attaching ? (
        <AttachOrganizationsDialog
          providerId={provider.id}
          attached={memberships.map((membership) => membership.organization[0]?.id ?? 0)}
          onClose={() => setAttaching(false)}
        />
      ) : null}
    </Stack>
  );
};
