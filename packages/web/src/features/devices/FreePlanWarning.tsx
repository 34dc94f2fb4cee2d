import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { Link as RouterLink } from 'react-router';
import { useBillingEnabled, useFreeAllowance, useMayAccessBilling } from '../../api/billing/api.js';

// Free devices in use from which Add device says how many are left.
const nearAllowanceFrom = 4;

// The free plan's warnings in Add device, where the installation bills: devices frozen over the
// allowance, the allowance reached (new provisioning blocked until an upgrade), or how many free
// devices are in use. Read for billing administrators, who get the Upgrade link.
export const useFreePlanLimit = (organizationId: number) => {
  const enabled = useBillingEnabled() === true;
  const access = useMayAccessBilling(organizationId, enabled);
  const allowance = useFreeAllowance(organizationId, enabled && access.data === true);
  const free = allowance.data ?? null;
  const blocked = free !== null && free.devices >= free.allowance;
  const upgrade = (
    <Button
      color="inherit"
      size="small"
      component={RouterLink}
      to={`/orgs/${organizationId}/billing#billing-plans`}
    >
      Upgrade
    </Button>
  );
  let warning = null;
  if (free !== null && free.frozen > 0) {
    warning = (
      <Alert severity="error" action={upgrade}>
        You have provisioned more devices than the free plan allows: {free.frozen} of them are
        frozen. Upgrade your plan to enable them and new provisioning.
      </Alert>
    );
  } else if (blocked && free !== null) {
    warning = (
      <Alert severity="warning" action={upgrade}>
        Free plan allowance reached ({free.devices} of {free.allowance} devices). Upgrade your plan
        to enable new provisioning.
      </Alert>
    );
  } else if (free !== null && free.devices >= nearAllowanceFrom) {
    warning = (
      <Alert severity="info" action={upgrade}>
        {free.devices} of your {free.allowance} free devices are in use.
      </Alert>
    );
  }
  return { blocked, warning };
};
