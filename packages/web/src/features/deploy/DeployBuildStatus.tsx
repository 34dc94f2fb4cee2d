import { errorText } from '@flotilla/sdk/errors';
import { buildLogDisplayLines } from '@flotilla/shared/releases/builder-limits';
import { effectiveReleaseStatus, isFailedStatus } from '@flotilla/shared/releases/release-status';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link as RouterLink } from 'react-router';
import { useClient } from '../../api/client.js';
import { pollingWhile } from '../../ui/polling.js';
import { releaseListRefreshMs } from '../releases/release-limits.js';

export type StartedBuild = { fleetId: number; releaseId: number };

type BuildState = {
  status: string;
  build_log: string | null;
  start_timestamp: string | null;
  update_timestamp: string | null;
};

// The build's status: running (a running build silent for 120 minutes has timed out), succeeded,
// or failed; a release that is gone has no status to follow.
type Phase = 'running' | 'success' | 'failed' | 'gone';

const phaseOf = (release: BuildState | null | undefined): Phase | undefined => {
  if (release === undefined) return undefined;
  if (release === null) return 'gone';
  const status = effectiveReleaseStatus(release, new Date());
  if (status === 'running') return 'running';
  return isFailedStatus(status) ? 'failed' : 'success';
};

// The last lines of the build log, as the release page shows it (at most 2,999 lines).
const shownLog = (log: string | null): string =>
  (log ?? '').split('\n').slice(-buildLogDisplayLines).join('\n');

// Follows a build the server runs after answering POST /v3/buildFromUrl: the release is read
// again (as the release page refreshes, every 6 s) until its build has ended; a success calls
// `onSucceeded`, a failure (or a release gone) shows why with the build log and calls `onFailed`.
export const DeployBuildStatus = ({
  build,
  onSucceeded,
  onFailed,
}: {
  build: StartedBuild;
  onSucceeded: () => void;
  onFailed: () => void;
}) => {
  const client = useClient();
  const release = useQuery({
    queryKey: ['deploy-build', build.releaseId],
    queryFn: async (): Promise<BuildState | null> =>
      (await client.pine.get({
        resource: 'release',
        id: build.releaseId,
        options: { $select: ['status', 'build_log', 'start_timestamp', 'update_timestamp'] },
      })) ?? null,
    ...pollingWhile((data: BuildState | null | undefined) =>
      data === undefined || phaseOf(data) === 'running' ? releaseListRefreshMs : false,
    ),
  });
  const phase = phaseOf(release.data);
  useEffect(() => {
    if (phase === 'success') onSucceeded();
    else if (phase === 'failed' || phase === 'gone') onFailed();
  }, [phase, onSucceeded, onFailed]);
  const releasePath = `/fleets/${build.fleetId}/releases/${build.releaseId}`;
  const openRelease = (
    <Link component={RouterLink} to={releasePath}>
      Open the release
    </Link>
  );
  return (
    <Stack spacing={1.5}>
      {phase === undefined || phase === 'running' ? (
        <Box role="status">
          <Typography color="text.secondary" sx={{ mb: 1 }}>
            Release {build.releaseId} is building…
          </Typography>
          <LinearProgress aria-label="Building the release" />
        </Box>
      ) : null}
      {release.isError ? (
        <Alert severity="error">
          {errorText(release.error) ?? 'Could not read the build status'}. Trying again; or{' '}
          {openRelease}.
        </Alert>
      ) : null}
      {phase === 'gone' ? (
        <Alert severity="error">Release {build.releaseId} no longer exists.</Alert>
      ) : null}
      {phase === 'failed' ? (
        <Alert severity="error">
          The release was created, but its build failed. {openRelease} to read its build log.
          <Box
            component="pre"
            aria-label="Build log"
            sx={{ mt: 1, mb: 0, maxHeight: 240, overflow: 'auto', whiteSpace: 'pre-wrap' }}
          >
            {shownLog(release.data?.build_log ?? null)}
          </Box>
        </Alert>
      ) : null}
      {phase === 'success' ? <Typography role="status">The release is built.</Typography> : null}
    </Stack>
  );
};
