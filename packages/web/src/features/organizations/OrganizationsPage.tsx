import { errorText } from '@flotilla/sdk/errors';
import AddIcon from '@mui/icons-material/Add';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { usePageTitle } from '../../ui/usePageTitle.js';
import { useSession } from '../../api/session/useSession.js';
import { CreateOrganizationDialog } from './CreateOrganizationDialog.js';
import { useLeaveOrganization, useOrganizationList } from './api-organizations.js';
import { DeleteOrganizationDialog } from './DeleteOrganizationDialog.js';
import { OrganizationsTable, organizationRowsOf } from './OrganizationsTable.js';

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
  const rows = organizationRowsOf(list.data ?? [], userId);
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
        <OrganizationsTable
          rows={rows}
          leaving={leave.isPending}
          onLeave={(membershipId) => leave.mutate(membershipId)}
          onDelete={setDeleting}
        />
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
