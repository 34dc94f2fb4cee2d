import { errorText } from '@flotilla/sdk/errors';
import { buildLogDisplayLines } from '@flotilla/shared/releases/builder-limits';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect } from 'react';
import { Link as RouterLink } from 'react-router';
import { useDeployBuild } from './api.js';
import { phaseOf } from './deploy-build-phase.js';

export type StartedBuild = { fleetId: number; releaseId: number };

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
  const release = useDeployBuild(build.releaseId);
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
