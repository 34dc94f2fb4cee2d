import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import { useEffect } from 'react';
import {
  Link as RouterLink,
  matchPath,
  Navigate,
  Outlet,
  useLocation,
  useOutletContext,
  useParams,
} from 'react-router';
import { useBreadcrumbs } from '../../ui/breadcrumbs.js';
import { useToasts } from '../../ui/toasts.js';
import { usePageTitle } from '../../ui/usePageTitle.js';
import type { FleetDetail } from '../../fleet/api-fleet-detail.js';
import { shortCommit } from '../../fleet/api-fleet-detail.js';
import { useFleetContext } from '../../fleet/useFleetContext.js';
import { useFleetRole } from '../../fleet/api-fleet-role.js';
import { LoadState } from '../../ui/LoadState.js';
import { type ReleaseDetail, useRelease } from './api-releases.js';
import { ReleaseStatusChip } from './ReleaseStatusChip.js';
import { releasePath } from './ReleasesPage.js';

export type ReleaseContext = {
  fleet: FleetDetail;
  release: ReleaseDetail;
  // When the release was last read: the status rule's clock.
  now: Date;
};

export const useReleaseContext = (): ReleaseContext => useOutletContext<ReleaseContext>();

// The toast for a release id in the URL that is not a positive number.
export const invalidIdText = 'invalid id passed in url';

// /{class}s/:fleetId/releases/:releaseId: the release's header and its summary and
// settings tabs (settings need resin.release.update). A non-numeric id shows an error toast and
// goes up one level, to the release list.
export const ReleaseLayout = () => {
  const { fleet } = useFleetContext();
  const { releaseId = '' } = useParams();
  const location = useLocation();
  const toasts = useToasts();
  const access = useFleetRole(fleet.id);
  const validId = /^\d+$/.test(releaseId) && Number(releaseId) > 0;
  const id = validId ? Number(releaseId) : 0;
  const release = useRelease(fleet.id, id, validId);
  const list = releasePath(fleet);
  usePageTitle(
    release.data ? `Release ${release.data.raw_version} · ${fleet.app_name}` : 'Release',
  );
  useBreadcrumbs(
    release.data
      ? [
          { label: 'Releases', to: list },
          { label: release.data.raw_version, to: `${list}/${release.data.id}` },
        ]
      : [{ label: 'Releases', to: list }],
    1,
  );
  useEffect(() => {
    if (!validId) toasts.show('error', invalidIdText);
  }, [validId, toasts]);

  if (!validId) return <Navigate to={list} replace />;
  if (release.isPending || release.isError) {
    return <LoadState queries={[release]} what="release" />;
  }
  if (release.data === null) {
    return (
      <Paper variant="outlined" role="alert" sx={{ p: 6, textAlign: 'center' }}>
        <Typography variant="h2" gutterBottom>
          Release not found
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 3 }}>
          This release does not exist in {fleet.app_name}, or it was deleted.
        </Typography>
        <Button variant="contained" component={RouterLink} to={list}>
          Back to releases
        </Button>
      </Paper>
    );
  }
  const detail = release.data;
  const base = `${list}/${detail.id}`;
  const onSettings = matchPath({ path: `${base}/settings` }, location.pathname) !== null;
  const mayEdit = access.can('release', 'update');
  const context: ReleaseContext = {
    fleet,
    release: detail,
    now: new Date(release.dataUpdatedAt),
  };
  return (
    <Box>
      <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', mb: 1, flexWrap: 'wrap' }}>
        <Typography variant="h2">Release {detail.raw_version}</Typography>
        <Typography sx={{ fontFamily: 'monospace' }} color="text.secondary">
          {shortCommit(detail.commit)}
        </Typography>
        <ReleaseStatusChip release={detail} now={context.now} />
      </Stack>
      {detail.is_invalidated ? (
        <Alert severity="warning" sx={{ mb: 2 }}>
          This release is invalidated: devices and fleets cannot be pinned to it.
        </Alert>
      ) : null}
      <Tabs
        value={onSettings ? 'settings' : 'summary'}
        aria-label="Release sections"
        sx={{ mb: 3, borderBottom: 1, borderColor: 'divider' }}
      >
        <Tab label="Summary" value="summary" component={RouterLink} to={base} />
        {mayEdit || onSettings ? (
          <Tab label="Settings" value="settings" component={RouterLink} to={`${base}/settings`} />
        ) : null}
      </Tabs>
      <Outlet context={context} />
    </Box>
  );
};
