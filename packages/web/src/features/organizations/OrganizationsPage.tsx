import { errorText } from '@flotilla/sdk/errors';
import AddIcon from '@mui/icons-material/Add';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { usePageTitle } from '../../ui/usePageTitle.js';
import { DisabledReason } from '../../ui/DisabledReason.js';
import { useSession } from '../../api/session/useSession.js';
import { useAppsEnabled } from '../../ui/useAppsEnabled.js';
import { classListLabel, shownClasses } from './class-list-label.js';
import { CreateOrganizationDialog } from './CreateOrganizationDialog.js';
import { useLeaveOrganization, useOrganizationList } from './api-organizations.js';
import { DeleteOrganizationDialog } from './DeleteOrganizationDialog.js';
import { OrganizationLogo } from './organization-logo.js';
import { deleteReason, leaveReason } from './organization-rules.js';

// /orgs: the user's organizations with create, delete and leave.
export const OrganizationsPage = () => {
  usePageTitle('Organizations');
  const userId = useSession()?.userId ?? 0;
  const list = useOrganizationList(userId);
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<{ id: number; name: string; fleets: number } | null>(
    null,
  );
  const leave = useLeaveOrganization(() => undefined);
  const appsEnabled = useAppsEnabled();
  const classes = shownClasses(appsEnabled);
  const rows = (list.data ?? []).map((organization) => {
    const memberships = organization.organization_membership;
    const administrators = memberships.filter(
      (m) => m.organization_membership_role[0]?.name === 'administrator',
    );
    const own = memberships.find((m) => m.user.__id === userId);
    const role = own?.organization_membership_role[0]?.name ?? 'member';
    return { organization, own, role, administrators: administrators.length };
  });
  return (
    <Box>
      <Stack direction="row" sx={{ alignItems: 'center', mb: 3 }}>
        <Typography variant="h1" sx={{ flexGrow: 1 }}>
          Organizations
        </Typography>
        <Button variant="contained" startIcon={<AddIcon />} onClick={() => setCreating(true)}>
          Create organization
        </Button>
      </Stack>
      {list.isPending ? (
        <Stack spacing={1} aria-busy="true" aria-label="Loading">
          <Skeleton variant="rounded" height={56} />
          <Skeleton variant="rounded" height={56} />
        </Stack>
      ) : list.isError ? (
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => void list.refetch()}>
              Retry
            </Button>
          }
        >
          {errorText(list.error) ?? 'Could not load your organizations'}
        </Alert>
      ) : rows.length === 0 ? (
        <Paper variant="outlined" sx={{ p: 6, textAlign: 'center' }}>
          <Typography variant="h2" gutterBottom>
            No organizations yet
          </Typography>
          <Typography color="text.secondary" sx={{ mb: 3 }}>
            Organizations hold fleets, members and teams. Create one, or accept an invitation.
          </Typography>
          <Button variant="contained" onClick={() => setCreating(true)}>
            Create organization
          </Button>
        </Paper>
      ) : (
        <Paper variant="outlined">
          <Table aria-label="Organizations">
            <TableHead>
              <TableRow>
                <TableCell>Name</TableCell>
                <TableCell>Your role</TableCell>
                <TableCell align="right">{classListLabel(appsEnabled)}</TableCell>
                <TableCell align="right">Actions</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map(({ organization, own, role, administrators }) => {
                const isAdmin = role === 'administrator';
                const cannotDelete = deleteReason(isAdmin, administrators);
                const cannotLeave = own
                  ? leaveReason(isAdmin, administrators)
                  : 'You are not a member';
                return (
                  <TableRow key={organization.id} hover>
                    <TableCell>
                      <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center' }}>
                        <OrganizationLogo
                          name={organization.name}
                          logo={organization.logo_image}
                          size={32}
                        />
                        <Link component={RouterLink} to={`/orgs/${organization.id}`}>
                          {organization.name}
                        </Link>
                      </Stack>
                    </TableCell>
                    <TableCell>
                      <Chip size="small" label={isAdmin ? 'Administrator' : 'Member'} />
                    </TableCell>
                    <TableCell align="right">
                      {
                        organization.application.filter((a) => classes.includes(a.is_of__class))
                          .length
                      }
                    </TableCell>
                    <TableCell align="right">
                      <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
                        <DisabledReason reason={cannotLeave}>
                          <Button
                            size="small"
                            disabled={cannotLeave !== null || leave.isPending}
                            onClick={() => own && leave.mutate(own.id)}
                          >
                            Leave
                          </Button>
                        </DisabledReason>
                        <DisabledReason reason={cannotDelete}>
                          <Button
                            size="small"
                            color="error"
                            disabled={cannotDelete !== null}
                            onClick={() =>
                              setDeleting({
                                id: organization.id,
                                name: organization.name,
                                fleets: organization.application.length,
                              })
                            }
                          >
                            Delete
                          </Button>
                        </DisabledReason>
                      </Stack>
                    </TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        </Paper>
      )}
      <CreateOrganizationDialog
        open={creating}
        onClose={() => setCreating(false)}
        takenNames={rows.map((row) => row.organization.name)}
      />
      <DeleteOrganizationDialog
        organization={deleting}
        fleetCount={deleting?.fleets ?? 0}
        onClose={() => setDeleting(null)}
        onDeleted={() => setDeleting(null)}
      />
    </Box>
  );
};
