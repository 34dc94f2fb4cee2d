import { errorText } from '@flotilla/sdk/errors';
import type { OAuthApplication } from '@flotilla/shared/auth/oauth';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
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
import { RequirePermission } from '../../api/session/guards.js';
import { isAdmin, useSession } from '../../api/session/useSession.js';
import { useOAuthApplications } from './api.js';
import { RegisterForm } from './RegisterApplicationForm.js';
import { DeleteDialog } from './DeleteApplicationDialog.js';

// /admin/oauth: the OAuth applications users can authorize at /login/oauth/:clientId.
const Applications = () => {
  usePageTitle('OAuth applications');
  const applications = useOAuthApplications();
  const [deleting, setDeleting] = useState<OAuthApplication | null>(null);
  return (
    <Box>
      <Stack direction="row" sx={{ mb: 2, alignItems: 'center', justifyContent: 'space-between' }}>
        <Typography variant="h1">OAuth applications</Typography>
        <Button component={RouterLink} to="/admin" variant="outlined">
          Users
        </Button>
      </Stack>
      <RegisterForm />
      {applications.isPending ? (
        <Skeleton variant="rounded" height={160} aria-label="Loading" />
      ) : applications.isError ? (
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => void applications.refetch()}>
              Retry
            </Button>
          }
        >
          {errorText(applications.error) ?? 'Could not load the applications'}
        </Alert>
      ) : applications.data.length === 0 ? (
        <Paper variant="outlined" sx={{ p: 6, textAlign: 'center' }}>
          <Typography>No OAuth applications yet.</Typography>
        </Paper>
      ) : (
        <Paper variant="outlined">
          <Table aria-label="OAuth applications">
            <TableHead>
              <TableRow>
                <TableCell>Name</TableCell>
                <TableCell>Client id</TableCell>
                <TableCell>Redirect URI</TableCell>
                <TableCell>Client type</TableCell>
                <TableCell />
              </TableRow>
            </TableHead>
            <TableBody>
              {applications.data.map((application) => (
                <TableRow key={application.id}>
                  <TableCell>{application.name}</TableCell>
                  <TableCell>
                    <code>{application.clientId}</code>
                  </TableCell>
                  <TableCell sx={{ wordBreak: 'break-all' }}>{application.redirectUri}</TableCell>
                  <TableCell>{application.confidential ? 'Confidential' : 'Public'}</TableCell>
                  <TableCell align="right">
                    <Button
                      color="error"
                      size="small"
                      aria-label={`Delete ${application.name}`}
                      onClick={() => setDeleting(application)}
                    >
                      Delete
                    </Button>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Paper>
      )}
      {deleting ? <DeleteDialog application={deleting} onClose={() => setDeleting(null)} /> : null}
    </Box>
  );
};

export const OAuthApplicationsPage = () => {
  const session = useSession();
  return (
    <RequirePermission allowed={isAdmin(session)} loading={false}>
      <Applications />
    </RequirePermission>
  );
};
