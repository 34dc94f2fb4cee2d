import { auditHistoryPermission } from '@flotilla/shared/audit-log/audit-permission';
import { errorText } from '@flotilla/sdk/errors';
import type { ApplicationClass } from '@flotilla/shared/fleets/fleet-name';
import {
  Alert,
  Box,
  Button,
  Chip,
  Paper,
  Skeleton,
  Stack,
  Tab,
  Tabs,
  Typography,
} from '@mui/material';
import {
  Link as RouterLink,
  matchPath,
  Navigate,
  Outlet,
  useLocation,
  useParams,
} from 'react-router';
import { SupportAccessNotice } from '../../../api/session/SupportAccessNotice.js';
import { useBreadcrumbs } from '../../../ui/breadcrumbs.js';
import { usePageTitle } from '../../../ui/usePageTitle.js';
import { AccessRoleButton } from '../../fleet-access/AccessRoleDialog.js';
import { classLabels } from '../../../fleet/class-names.js';
import type { FleetContext } from '../../../fleet/useFleetContext.js';
import { useFleet } from './api-fleet.js';
import { useFleetRole } from '../../../fleet/api-fleet-role.js';

const classes = Object.keys(classLabels) as ApplicationClass[];

// The class the URL claims: /fleets/..., /apps/... or /blocks/...
const classOfPath = (pathname: string): ApplicationClass =>
  classes.find((name) => pathname.startsWith(`${classLabels[name].path}/`)) ?? 'fleet';

const Centered = ({
  title,
  text,
  back,
}: {
  title: string;
  text: string;
  back: ApplicationClass;
}) => (
  <Paper variant="outlined" role="alert" sx={{ p: 6, textAlign: 'center' }}>
    <Typography variant="h2" gutterBottom>
      {title}
    </Typography>
    <Typography color="text.secondary" sx={{ mb: 3 }}>
      {text}
    </Typography>
    <Button variant="contained" component={RouterLink} to={classLabels[back].path}>
      Back to {classLabels[back].many.toLowerCase()}
    </Button>
  </Paper>
);

// Fleet-only tabs after Devices.
const fleetSections: readonly {
  path: string;
  label: string;
  needs?: { resource: string; action: string };
}[] = [
  { path: 'envvars', label: 'Variables' },
  { path: 'config', label: 'Configuration' },
  { path: 'api-keys', label: 'API keys', needs: { resource: 'api_key', action: 'read' } },
  { path: 'history', label: 'History', needs: auditHistoryPermission },
];

// Header and tabs of the fleet pages (/fleets/:fleetId, /apps/..., /blocks/...).
export const FleetLayout = () => {
  const { fleetId = '' } = useParams();
  const location = useLocation();
  const urlClass = classOfPath(location.pathname);
  const validId = /^\d+$/.test(fleetId) && Number(fleetId) > 0;
  const id = validId ? Number(fleetId) : null;
  const fleet = useFleet(id);
  const access = useFleetRole(id ?? 0);
  usePageTitle(fleet.data?.app_name ?? classLabels[urlClass].one);
  const organization = fleet.data?.organization[0];
  useBreadcrumbs(
    fleet.data && organization
      ? [
          {
            label: organization.name,
            to: `/orgs/${organization.id}${classLabels[fleet.data.is_of__class].path}`,
          },
          {
            label: fleet.data.app_name,
            to: `${classLabels[fleet.data.is_of__class].path}/${fleet.data.id}`,
          },
        ]
      : [],
  );

  if (id === null) {
    return <Centered title="Invalid id" text="invalid id passed in url" back={urlClass} />;
  }
  if (fleet.isPending) {
    return (
      <Box aria-busy="true" aria-label="Loading">
        <Skeleton variant="text" width={280} height={48} />
        <Skeleton variant="rounded" height={40} sx={{ my: 2 }} />
        <Skeleton variant="rounded" height={240} />
      </Box>
    );
  }
  if (fleet.isError) {
    return (
      <Alert
        severity="error"
        action={
          <Button color="inherit" size="small" onClick={() => void fleet.refetch()}>
            Retry
          </Button>
        }
      >
        {errorText(fleet.error) ?? `Could not load the ${classLabels[urlClass].one.toLowerCase()}`}
      </Alert>
    );
  }
  const detail = fleet.data;
  // A fleet that does not exist (or is not the user's to see) is not an error: back to the list.
  if (detail === null) return <Navigate to="/fleets" replace />;
  // A path whose class prefix differs from the fleet's class is rewritten.
  if (detail.is_of__class !== urlClass) {
    const rest = location.pathname.slice(classLabels[urlClass].path.length);
    return (
      <Navigate
        replace
        to={`${classLabels[detail.is_of__class].path}${rest}${location.search}${location.hash}`}
      />
    );
  }

  const base = `${classLabels[detail.is_of__class].path}/${detail.id}`;
  const onSettings = matchPath({ path: `${base}/settings`, end: false }, location.pathname);
  // Members and teams exist for every class.
  const accessSection = (['members', 'teams'] as const).find((section) =>
    matchPath({ path: `${base}/${section}`, end: false }, location.pathname),
  );
  // The devices, variables, configuration and API keys tabs exist for fleets only (apps and
  // blocks have none of these); API keys need resin.api_key.read.
  const onDevices = matchPath({ path: `${base}/devices`, end: false }, location.pathname);
  const onReleases = matchPath({ path: `${base}/releases`, end: false }, location.pathname);
  const fleetSection = fleetSections.find((section) =>
    matchPath({ path: `${base}/${section.path}`, end: false }, location.pathname),
  );
  const isFleet = detail.is_of__class === 'fleet';
  // Settings are hidden from those who may not change the fleet (their guard sends them home).
  const showSettings = access.can('application', 'update');
  const context: FleetContext = { fleet: detail };
  return (
    <Box>
      <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', mb: 1, minWidth: 0 }}>
        <Typography variant="h1" noWrap title={detail.app_name}>
          {detail.app_name}
        </Typography>
        <Chip size="small" label={classLabels[detail.is_of__class].one} />
        <AccessRoleButton application={detail} />
      </Stack>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {detail.organization[0]?.name ?? ''}
      </Typography>
      <SupportAccessNotice
        until={[detail.is_accessible_by_support_until__date]}
        subject={classLabels[detail.is_of__class].one.toLowerCase()}
        member={access.isPending || access.isMember}
      />
      <Tabs
        value={
          onSettings
            ? 'settings'
            : onDevices
              ? 'devices'
              : onReleases
                ? 'releases'
                : (accessSection ?? fleetSection?.path ?? 'summary')
        }
        variant="scrollable"
        allowScrollButtonsMobile
        aria-label={`${classLabels[detail.is_of__class].one} sections`}
        sx={{ mb: 3, borderBottom: 1, borderColor: 'divider' }}
      >
        <Tab label="Summary" value="summary" component={RouterLink} to={base} />
        {isFleet ? (
          <Tab label="Devices" value="devices" component={RouterLink} to={`${base}/devices`} />
        ) : null}
        <Tab label="Releases" value="releases" component={RouterLink} to={`${base}/releases`} />
        {isFleet
          ? fleetSections
              .filter(
                (section) =>
                  section.needs === undefined ||
                  access.can(section.needs.resource, section.needs.action) ||
                  section === fleetSection,
              )
              .map((section) => (
                <Tab
                  key={section.path}
                  label={section.label}
                  value={section.path}
                  component={RouterLink}
                  to={`${base}/${section.path}`}
                />
              ))
          : null}
        <Tab label="Members" value="members" component={RouterLink} to={`${base}/members`} />
        <Tab label="Teams" value="teams" component={RouterLink} to={`${base}/teams`} />
        {showSettings || onSettings ? (
          <Tab label="Settings" value="settings" component={RouterLink} to={`${base}/settings`} />
        ) : null}
      </Tabs>
      <Outlet context={context} />
    </Box>
  );
};
