import Alert from '@mui/material/Alert';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { errorText } from '@flotilla/sdk/errors';
import { useParams } from 'react-router';
import { usePageTitle } from '../../ui/usePageTitle.js';
import { useBillingEnabled, useMayAccessBilling } from '../../api/billing/api.js';
import { BillingSections } from './BillingSections.js';

// /orgs/:organizationId/billing: the organization's plan, usage, invoices, billing account and
// plan changes, for those with access_billing (its administrators, platform administrators).
export const BillingPage = () => {
  usePageTitle('Billing');
  const organizationId = Number(useParams().organizationId);
  const enabled = useBillingEnabled();
  const access = useMayAccessBilling(organizationId);
  if (enabled === false) {
    return (
      <Alert severity="info">
        Billing is not used on this installation: every organization has every feature, without
        limits or charges.
      </Alert>
    );
  }
  if (enabled === undefined || access.isPending) {
    return <Skeleton variant="rounded" height={240} aria-label="Loading billing" />;
  }
  if (access.isError) {
    return <Alert severity="error">{errorText(access.error) ?? 'Could not load billing'}</Alert>;
  }
  if (!access.data) {
    return (
      <Alert severity="warning">
        Only the organization&apos;s administrators can see and change its billing.
      </Alert>
    );
  }
  return (
    <>
      <Typography variant="h2" sx={{ mb: 2 }}>
        Billing
      </Typography>
      <BillingSections organizationId={organizationId} />
    </>
  );
};
