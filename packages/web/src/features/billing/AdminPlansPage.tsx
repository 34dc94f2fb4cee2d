import { includedDevices, includedMembers } from '@flotilla/shared/billing/plan-table';
import type { CataloguePlan } from '@flotilla/shared/billing/plan-table';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { lazy, Suspense, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { RequirePermission } from '../../api/session/guards.js';
import { isAdmin, useSession } from '../../api/session/useSession.js';
import { LoadState } from '../../ui/LoadState.js';
import { usePageTitle } from '../../ui/usePageTitle.js';
import { useBillingEnabled } from '../../api/billing/api.js';
import { useCatalogue } from './api.js';
import { dollars } from './format.js';

const PlanEditDialog = lazy(async () => ({
  default: (await import('./PlanEditDialog.js')).PlanEditDialog,
}));

// /admin/plans: the plan catalogue organizations are billed by (platform administrators).
const Plans = () => {
  usePageTitle('Plans');
  const catalogue = useCatalogue();
  const enabled = useBillingEnabled();
  const [editing, setEditing] = useState<CataloguePlan | null>(null);
  const plans = catalogue.data ?? [];
  return (
    <Box>
      <Stack direction="row" sx={{ mb: 2, alignItems: 'center', justifyContent: 'space-between' }}>
        <Typography variant="h1">Plans</Typography>
        <Button component={RouterLink} to="/admin" variant="outlined">
          Users
        </Button>
      </Stack>
      {enabled === false ? (
        <Alert severity="info" sx={{ mb: 2 }}>
          Billing is not used on this installation (FLOTILLA_BILLING is off): organizations are on
          an unlimited plan and these plans apply once billing is switched on.
        </Alert>
      ) : null}
      <LoadState queries={[catalogue]} what="plans" />
      {catalogue.data && plans.length === 0 ? (
        <Typography color="text.secondary">The catalogue has no plans.</Typography>
      ) : null}
      {plans.length > 0 ? (
        <Paper variant="outlined">
          <Table size="small" aria-label="Plan catalogue">
            <TableHead>
              <TableRow>
                <TableCell>Plan</TableCell>
                <TableCell>Code</TableCell>
                <TableCell align="right">Monthly</TableCell>
                <TableCell align="right">Annual</TableCell>
                <TableCell align="right">Devices</TableCell>
                <TableCell align="right">Members</TableCell>
                <TableCell align="right">Extra device</TableCell>
                <TableCell>Self-serve</TableCell>
                <TableCell />
              </TableRow>
            </TableHead>
            <TableBody>
              {plans.map((plan) => (
                <TableRow key={plan.id}>
                  <TableCell>{plan.title}</TableCell>
                  <TableCell>{plan.billing_code}</TableCell>
                  <TableCell align="right">{dollars(plan.monthly_price)}</TableCell>
                  <TableCell align="right">{dollars(plan.annual_price)}</TableCell>
                  <TableCell align="right">{includedDevices(plan)}</TableCell>
                  <TableCell align="right">{includedMembers(plan)}</TableCell>
                  <TableCell align="right">{dollars(plan.additional_device_price)}</TableCell>
                  <TableCell>{plan.can_self_serve ? 'Yes' : 'No'}</TableCell>
                  <TableCell align="right">
                    <Button
                      size="small"
                      aria-label={`Edit ${plan.title}`}
                      onClick={() => setEditing(plan)}
                    >
                      Edit
                    </Button>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Paper>
      ) : null}
      {editing ? (
        <Suspense fallback={null}>
          <PlanEditDialog plan={editing} onClose={() => setEditing(null)} />
        </Suspense>
      ) : null}
    </Box>
  );
};

export const AdminPlansPage = () => {
  const session = useSession();
  return (
    <RequirePermission allowed={isAdmin(session)} loading={false}>
      <Plans />
    </RequirePermission>
  );
};
