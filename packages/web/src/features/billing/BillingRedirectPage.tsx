import { errorText } from '@flotilla/sdk/errors';
import Alert from '@mui/material/Alert';
import Skeleton from '@mui/material/Skeleton';
import { Navigate } from 'react-router';
import { useSession } from '../../api/session/useSession.js';
import { usePageTitle } from '../../ui/usePageTitle.js';
import { useFirstAdministeredOrganization } from './api.js';

// /billing: the billing page of the organization the user has administered longest.
export const BillingRedirectPage = () => {
  usePageTitle('Billing');
  const organization = useFirstAdministeredOrganization(useSession()?.userId ?? 0);
  if (organization.isPending) {
    return <Skeleton variant="rounded" height={240} aria-label="Loading billing" />;
  }
  if (organization.isError) {
    return (
      <Alert severity="error">{errorText(organization.error) ?? 'Could not load billing'}</Alert>
    );
  }
  if (organization.data === null) {
    return (
      <Alert severity="info">
        You administer no organization: billing is seen by an organization&apos;s administrators.
      </Alert>
    );
  }
  return <Navigate to={`/orgs/${organization.data}/billing`} replace />;
};
