import { isObserverOnly } from '@flotilla/shared/permissions/roles';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { absoluteTime, plural } from '../../device/device-format.js';
import { useFleetRole } from '../../fleet/api-fleet-role.js';
import { byteSize, buildDuration } from './release-format.js';
import { releaseServices } from './release-services.js';
import { ReleaseAssets } from './ReleaseAssets.js';
import { useReleaseContext } from './ReleaseLayout.js';
import { KnownIssues } from './KnownIssues.js';
import { ReleaseBuildLog } from './ReleaseBuildLog.js';
import { ReleaseComposition } from './ReleaseComposition.js';
import { ReleaseNotes } from './ReleaseNotes.js';
import { ReleaseStatusChip } from './ReleaseStatusChip.js';
import { ReleaseTags } from './ReleaseTags.js';
import { ReleaseServicesTable } from './ReleaseServicesTable.js';

const Field = ({ label, children }: { label: string; children: ReactNode }) => (
  <>
    <Typography component="dt" color="text.secondary" variant="body2">
      {label}
    </Typography>
    <Box component="dd" sx={{ m: 0, minWidth: 0 }}>
      {children}
    </Box>
  </>
);

const yesNo = (value: boolean): string => (value ? 'Yes' : 'No');

// The release's summary: its fields, tags, notes and per-service images (with Dockerfiles);
// the build log and the composition only for users who are more than observers.
export const ReleaseSummaryPage = () => {
  const { fleet, release, now } = useReleaseContext();
  const access = useFleetRole(fleet.id);
  const services = releaseServices(release);
  const totalSize = services.reduce((sum, { image }) => sum + (image.image_size ?? 0), 0);
  const observer = access.roles.length === 0 || isObserverOnly(access.roles);
  const knownIssues = release.known_issue_list?.trim() ?? '';
  return (
    <Stack spacing={3}>
      <Paper variant="outlined" component="section" aria-label="Release summary" sx={{ p: 3 }}>
        <Box
          component="dl"
          sx={{
            m: 0,
            display: 'grid',
            gridTemplateColumns: { xs: '1fr', sm: '160px 1fr' },
            rowGap: 1.5,
            columnGap: 2,
          }}
        >
          <Field label="Version">{release.raw_version}</Field>
          <Field label="Released">{absoluteTime(release.created_at)}</Field>
          <Field label="Deployment status">
            <ReleaseStatusChip release={release} now={now} />
          </Field>
          <Field label="Image size">{totalSize > 0 ? byteSize(totalSize) : '—'}</Field>
          <Field label="Valid">{yesNo(!release.is_invalidated)}</Field>
          <Field label="Finalized">{yesNo(release.is_final)}</Field>
          <Field label="Author">{release.is_created_by__user[0]?.username ?? '—'}</Field>
          <Field label="Commit">
            <Typography sx={{ fontFamily: 'monospace', overflowWrap: 'anywhere' }}>
              {release.commit}
            </Typography>
          </Field>
          <Field label="Running on">{plural(release.is_running_on__device, 'device')}</Field>
          <Field label="Build duration">{buildDuration(release)}</Field>
          <Field label="Tags">
            <ReleaseTags
              fleetId={fleet.id}
              releaseId={release.id}
              tags={release.release_tag}
              denied={access.denied('release_tag', 'create')}
            />
          </Field>
          {knownIssues !== '' || !observer ? (
            <Field label="Known issues">
              <KnownIssues
                fleetId={fleet.id}
                releaseId={release.id}
                text={knownIssues}
                denied={access.denied('release', 'update')}
              />
            </Field>
          ) : null}
        </Box>
      </Paper>
      {observer || release.status !== 'success' || release.is_invalidated ? null : (
        <Box>
          {/* Staged rollouts: plan waves gated by health from this release. */}
          <Button
            variant="outlined"
            component={Link}
            to={`/fleets/${fleet.id}/rollouts/new?release=${release.id}`}
          >
            Roll out in waves
          </Button>
        </Box>
      )}
      <ReleaseNotes
        fleetId={fleet.id}
        releaseId={release.id}
        note={release.note}
        denied={access.denied('release', 'update')}
      />
      <ReleaseAssets fleetId={fleet.id} releaseId={release.id} />
      <ReleaseServicesTable services={services} />
      {observer ? null : (
        <ReleaseBuildLog
          fleetName={fleet.app_name}
          commit={release.commit}
          releaseLog={release.build_log}
          services={services.map(({ name, image }) => ({ name, log: image.build_log }))}
        />
      )}
      {observer || release.composition === null ? null : (
        <ReleaseComposition
          fleetName={fleet.app_name}
          commit={release.commit}
          composition={release.composition}
        />
      )}
    </Stack>
  );
};
