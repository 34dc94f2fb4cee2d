import Alert from '@mui/material/Alert';
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
import { usePageTitle } from '../../ui/usePageTitle.js';
import { useAnalyticsEnabled, useUsageSummary } from './api.js';

const periods = [7, 30, 90] as const;

const Usage = () => {
  const [days, setDays] = useState<number>(30);
  const usage = useUsageSummary(days);
  const enabled = useAnalyticsEnabled();
  return (
    <>
      {enabled.data === false ? (
        <Alert severity="info" sx={{ mb: 2 }}>
          Usage counting is off on this server (FLOTILLA_ANALYTICS). When on, it counts only for
          users who accept analytics in the cookie banner, and stores nothing about who.
        </Alert>
      ) : null}
      <ToggleButtonGroup
        size="small"
        exclusive
        value={days}
        onChange={(_event, value: unknown) => {
          if (typeof value === 'number') setDays(value);
        }}
        aria-label="Period"
        sx={{ mb: 2 }}
      >
        {periods.map((period) => (
          <ToggleButton key={period} value={period}>
            {period} days
          </ToggleButton>
        ))}
      </ToggleButtonGroup>
      <LoadState queries={[usage]} what="usage" />
      {usage.data?.rows.length === 0 ? (
        <Paper variant="outlined" sx={{ p: 6, textAlign: 'center' }}>
          <Typography>Nothing counted in this period.</Typography>
        </Paper>
      ) : usage.data ? (
        <Paper variant="outlined">
          <Table size="small" aria-label="Usage">
            <TableHead>
              <TableRow>
                <TableCell>Page or feature</TableCell>
                <TableCell>Kind</TableCell>
                <TableCell align="right">Uses</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {usage.data.rows.map((row) => (
                <TableRow key={`${row.kind}:${row.name}`}>
                  <TableCell>{row.name}</TableCell>
                  <TableCell>{row.kind}</TableCell>
                  <TableCell align="right">{row.count}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Paper>
      ) : null}
    </>
  );
};

// /admin/usage: first-party page and feature counts (platform administrators).
export const UsageAdminPage = () => {
  const session = useSession();
  usePageTitle('Usage');
  return (
    <RequirePermission allowed={isAdmin(session)} loading={false}>
      <Typography variant="h1" sx={{ mb: 2 }}>
        Usage
      </Typography>
      <Usage />
    </RequirePermission>
  );
};
