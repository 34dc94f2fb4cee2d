import { errorText } from '@flotilla/sdk/errors';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import { Link as RouterLink, Outlet, useLocation, useParams } from 'react-router';
import { usePublicConfig } from '../../api/config/api.js';
import { isAdmin, useSession } from '../../api/session/useSession.js';
import { RedirectWithMessage } from '../../ui/RedirectWithMessage.js';
import { OrganizationLogo } from './organization-logo.js';
import { useOrganization, useOrganizationAccess } from './api-organizations.js';
import { idParam } from './id-param.js';
import { OrganizationSupportNotice } from './OrganizationSupportNotice.js';
import type { OrganizationContext } from './useOrganizationContext.js';

const sectionOf = (pathname: string, base: string): string => {
  const rest = pathname.slice(base.length).split('/')[1] ?? '';
  return ['members', 'teams', 'alerts', 'billing', 'support', 'webhooks', 'audit'].includes(rest)
    ? rest
    : 'summary';
};

const frozenForBilling =
  'This organization is frozen: update its billing details and pay its past-due invoices to unfreeze it';
const frozenForMembers =
  'This organization is frozen: please reach its administrators to update its billing details';

// Header and tabs of /orgs/:organizationId and its members and teams pages.
export const OrganizationLayout = () => {
  const { organizationId } = useParams();
  const id = idParam(organizationId);
  const location = useLocation();
  const organization = useOrganization(id);
  const access = useOrganizationAccess(id);
  // The Billing tab only where billing is used, for those with access_billing.
  const config = usePublicConfig();
  const session = useSession();
  const mayBill = access.can('organization', 'access_billing') || isAdmin(session);
  const billingTab = config.data?.billingEnabled === true && mayBill;
  if (id === null) {
    return <RedirectWithMessage to="/orgs" message="invalid id passed in url" />;
  }
  if (organization.isPending) {
    return (
      <Box aria-busy="true" aria-label="Loading">
        <Skeleton variant="text" width={280} height={48} />
        <Skeleton variant="rounded" height={40} sx={{ my: 2 }} />
        <Skeleton variant="rounded" height={240} />
      </Box>
    );
  }
  if (organization.isError) {
    return (
      <Alert
        severity="error"
        action={
          <Button color="inherit" size="small" onClick={() => void organization.refetch()}>
            Retry
          </Button>
        }
      >
        {errorText(organization.error) ?? 'Could not load the organization'}
      </Alert>
    );
  }
  if (organization.data === null) {
    return <RedirectWithMessage to="/orgs" message="Resource not found" />;
  }
  const detail = organization.data;
  const base = `/orgs/${detail.id}`;
  // A frozen organization: those who can pay are sent to its billing page (still reachable, as
  // are its credits), the others back to their organizations.
  const paying = ['billing', 'credits'].includes(
    location.pathname.slice(base.length).split('/')[1] ?? '',
  );
  if (detail.is_frozen && config.data?.billingEnabled === true && !paying && !access.isPending) {
    return mayBill ? (
      <RedirectWithMessage to={`${base}/billing`} message={frozenForBilling} />
    ) : (
      <RedirectWithMessage to="/orgs" message={frozenForMembers} />
    );
  }
  const context: OrganizationContext = { organization: detail, access };
  return (
    <Box>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mb: 2, minWidth: 0 }}>
        <OrganizationLogo name={detail.name} logo={detail.logo_image} size={48} />
        <Typography variant="h1" noWrap title={detail.name}>
          {detail.name}
        </Typography>
      </Stack>
      <OrganizationSupportNotice
        organizationId={detail.id}
        member={access.isPending || access.membershipId !== null}
      />
      <Tabs
        value={sectionOf(location.pathname, base)}
        aria-label="Organization sections"
        // Up to nine sections for an administrator: they scroll rather than widen the page.
        variant="scrollable"
        scrollButtons="auto"
        sx={{ mb: 3, borderBottom: 1, borderColor: 'divider' }}
      >
        <Tab label="Summary" value="summary" component={RouterLink} to={base} />
        <Tab label="Fleets" value="fleets" component={RouterLink} to={`${base}/fleets`} />
        <Tab label="Members" value="members" component={RouterLink} to={`${base}/members`} />
        <Tab label="Teams" value="teams" component={RouterLink} to={`${base}/teams`} />
        <Tab label="Alerts" value="alerts" component={RouterLink} to={`${base}/alerts`} />
        {billingTab ? (
          <Tab label="Billing" value="billing" component={RouterLink} to={`${base}/billing`} />
        ) : null}
        <Tab label="Support" value="support" component={RouterLink} to={`${base}/support`} />
        {access.isAdministrator ? (
          <Tab label="Webhooks" value="webhooks" component={RouterLink} to={`${base}/webhooks`} />
        ) : null}
        {access.can('audit_log_entry', 'read') ? (
          <Tab label="Audit log" value="audit" component={RouterLink} to={`${base}/audit`} />
        ) : null}
      </Tabs>
      <Outlet context={context} />
    </Box>
  );
};
