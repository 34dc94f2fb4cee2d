import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { Link as RouterLink } from 'react-router';
import { useBillingEnabled, useFreeAllowance, useMayAccessBilling } from '../../api/billing/api.js';

// Free devices in use from which Add device says how many are left.
const nearAllowanceFrom = 4;

// The free plan's warnings in Add device, where the installation bills: devices frozen over the
// allowance, the allowance reached (new provisioning blocked until an upgrade), or how many free
// devices are in use. Every member sees them; billing administrators get the Upgrade link, the
// others are told to ask one.
export const useFreePlanLimit = (organizationId: number) => {
  const enabled = useBillingEnabled() === true;
  const access = useMayAccessBilling(organizationId, enabled);
  const allowance = useFreeAllowance(organizationId, enabled);
  const free = allowance.data ?? null;
  const blocked = free !== null && free.devices >= free.allowance;
  const mayUpgrade = access.data === true;
  const askAdministrator = mayUpgrade ? '' : ' Ask an administrator of the organization.';
  const upgrade = !mayUpgrade ? undefined : (
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
        frozen. Upgrade your plan to enable them and new provisioning.{askAdministrator}
      </Alert>
    );
  } else if (blocked && free !== null) {
    warning = (
      <Alert severity="warning" action={upgrade}>
        Free plan allowance reached ({free.devices} of {free.allowance} devices). Upgrade your plan
        to enable new provisioning.{askAdministrator}
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
