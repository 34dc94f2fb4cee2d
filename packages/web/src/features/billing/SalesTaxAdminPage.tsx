import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';
import { useBillingEnabled } from '../../api/billing/api.js';
import { RequirePermission } from '../../api/session/guards.js';
import { isAdmin, useSession } from '../../api/session/useSession.js';
import { LoadState } from '../../ui/LoadState.js';
import { usePageTitle } from '../../ui/usePageTitle.js';
import { useSalesTaxRates } from './api-admin.js';
import { SalesTaxRatesEditor } from './SalesTaxRatesEditor.js';

// /admin/sales-tax: the US sales tax rates invoices to US billing addresses carry (platform
// administrators). None is built in: where tax is due, and at what rate, is the operator's to say.
const SalesTax = () => {
  usePageTitle('Sales tax');
  const rates = useSalesTaxRates();
  const enabled = useBillingEnabled();
  return (
    <Box>
      <Stack direction="row" sx={{ mb: 2, alignItems: 'center', justifyContent: 'space-between' }}>
        <Typography variant="h1">Sales tax</Typography>
        <Button component={RouterLink} to="/admin" variant="outlined">
          Users
        </Button>
      </Stack>
      <Typography sx={{ mb: 2 }}>
        Invoices to a billing address in the United States carry sales tax at the rate of its state,
        or at the rate for every other state. Invoices issued after a change carry the new rates;
        issued ones keep theirs.
      </Typography>
      {enabled === false ? (
        <Alert severity="info" sx={{ mb: 2 }}>
          Billing is not used on this installation (FLOTILLA_BILLING is off): these rates apply once
          billing is switched on.
        </Alert>
      ) : null}
      <LoadState queries={[rates]} what="sales tax rates" />
      {rates.data ? <SalesTaxRatesEditor saved={rates.data.rates} /> : null}
    </Box>
  );
};

export const SalesTaxAdminPage = () => {
  const session = useSession();
  return (
    <RequirePermission allowed={isAdmin(session)} loading={false}>
      <SalesTax />
    </RequirePermission>
  );
};
