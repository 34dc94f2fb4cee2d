import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { RequirePermission } from '../../api/session/guards.js';
import { isAdmin, useSession } from '../../api/session/useSession.js';
import { LoadState } from '../../ui/LoadState.js';
import { MutationError } from '../../ui/MutationError.js';
import { usePageTitle } from '../../ui/usePageTitle.js';
import { useDismissError, useErrorReports } from './api.js';

type Source = 'all' | 'console' | 'server';

const sourceOf = (value: unknown): Source =>
  value === 'console' || value === 'server' ? value : 'all';

const Errors = () => {
  const [source, setSource] = useState<Source>('all');
  const errors = useErrorReports(source);
  const dismiss = useDismissError();
  return (
    <Box>
      <ToggleButtonGroup
        size="small"
        exclusive
        value={source}
        onChange={(_event, value: unknown) => setSource(sourceOf(value))}
        aria-label="Source"
        sx={{ mb: 2 }}
      >
        <ToggleButton value="all">All</ToggleButton>
        <ToggleButton value="console">Console</ToggleButton>
        <ToggleButton value="server">Server</ToggleButton>
      </ToggleButtonGroup>
      <LoadState queries={[errors]} what="errors" />
      <MutationError error={dismiss.error} fallback="Could not dismiss the error" />
      {errors.data?.errors.length === 0 ? (
        <Paper variant="outlined" sx={{ p: 6, textAlign: 'center' }}>
          <Typography>No errors recorded.</Typography>
        </Paper>
      ) : errors.data ? (
        <Paper variant="outlined">
          <Table size="small" aria-label="Errors">
            <TableHead>
              <TableRow>
                <TableCell>Error</TableCell>
                <TableCell>Where</TableCell>
                <TableCell align="right">Count</TableCell>
                <TableCell>First seen</TableCell>
                <TableCell>Last seen</TableCell>
                <TableCell align="right">Actions</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {errors.data.errors.map((error) => (
                <TableRow key={error.id}>
                  <TableCell title={error.stack}>
                    <Typography variant="body2" sx={{ fontWeight: 600 }}>
                      {error.name}: {error.message}
                    </Typography>
                    <Typography variant="caption" color="text.secondary">
                      {error.source}
                      {error.release === '' ? '' : `, release ${error.release}`}
                      {error.lastRequestId === null ? '' : `, request ${error.lastRequestId}`}
                    </Typography>
                  </TableCell>
                  <TableCell>{error.location}</TableCell>
                  <TableCell align="right">{error.count}</TableCell>
                  <TableCell>{new Date(error.firstSeenAt).toLocaleString()}</TableCell>
                  <TableCell>{new Date(error.lastSeenAt).toLocaleString()}</TableCell>
                  <TableCell align="right">
                    <Button
                      size="small"
                      disabled={dismiss.isPending}
                      onClick={() => dismiss.mutate(error.id)}
                    >
                      Dismiss
                    </Button>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Paper>
      ) : null}
    </Box>
  );
};

// /admin/errors: the console's and the server's errors, grouped, with counts (built-in error
// reporting; platform administrators).
export const ErrorReportsAdminPage = () => {
  const session = useSession();
  usePageTitle('Errors');
  return (
    <RequirePermission allowed={isAdmin(session)} loading={false}>
      <Typography variant="h1" sx={{ mb: 2 }}>
        Errors
      </Typography>
      <Errors />
    </RequirePermission>
  );
};
