import { errorText } from '@flotilla/sdk/errors';
import { isFailedStatus, releaseStatusLabel } from '@flotilla/shared/releases/release-status';
import {
  Alert,
  Button,
  Link,
  Card,
  CardContent,
  Chip,
  Skeleton,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { Link as RouterLink } from 'react-router';
import { type FleetDetail, shortCommit } from '../../../fleet/api-fleet-detail.js';
import { recentReleaseCount } from '../../../fleet/fleet-limits.js';
import { fleetPath } from '../../../fleet/class-names.js';
import { useReleasesOverview } from './api-fleet-summary.js';

type ChipColor = 'success' | 'info' | 'error' | 'default';

// Release statuses by colour: success green, running blue, the failed kinds red.
const statusColor = (status: string): ChipColor => {
  if (status === 'success') return 'success';
  if (status === 'running') return 'info';
  return isFailedStatus(status) ? 'error' : 'default';
};

// Success and running counts plus the newest releases.
export const ReleasesCard = ({ fleet }: { fleet: FleetDetail }) => {
  const overview = useReleasesOverview(fleet.id);
  const newest = overview.data?.recent[0];
  const releases = `${fleetPath(fleet.is_of__class, fleet.id)}/releases`;
  return (
    <Card variant="outlined" component="section" aria-labelledby="releases-card-title">
      <CardContent>
        <Stack direction="row" sx={{ alignItems: 'baseline', justifyContent: 'space-between' }}>
          <Typography id="releases-card-title" variant="h3" gutterBottom>
            Releases
          </Typography>
          <Link component={RouterLink} to={releases} variant="body2">
            All releases
          </Link>
        </Stack>
        {overview.isPending ? (
          <Stack spacing={1} aria-busy="true" aria-label="Loading releases">
            {Array.from({ length: 3 }, (_, index) => (
              <Skeleton key={index} variant="rounded" height={28} />
            ))}
          </Stack>
        ) : overview.isError ? (
          <Alert
            severity="error"
            action={
              <Button color="inherit" size="small" onClick={() => void overview.refetch()}>
                Retry
              </Button>
            }
          >
            {errorText(overview.error) ?? 'Could not load the releases'}
          </Alert>
        ) : overview.data.recent.length === 0 ? (
          <Typography color="text.secondary">
            No releases yet.{' '}
            <Link component={RouterLink} to={releases}>
              How to add a release
            </Link>
          </Typography>
        ) : (
          <>
            <Stack direction="row" spacing={1} sx={{ mb: 1.5 }}>
              <Chip
                size="small"
                color="success"
                variant="outlined"
                label={`${overview.data.successCount} successful`}
              />
              <Chip
                size="small"
                color="info"
                variant="outlined"
                label={`${overview.data.runningCount} running`}
              />
            </Stack>
            {newest?.status === 'running' ? (
              <Alert
                severity="info"
                sx={{ mb: 1.5 }}
                action={
                  <Button
                    color="inherit"
                    size="small"
                    component={RouterLink}
                    to={`${releases}/${newest.id}`}
                  >
                    View
                  </Button>
                }
              >
                A build is in progress.
              </Alert>
            ) : null}
            <Table size="small" aria-label={`Latest ${recentReleaseCount} releases`}>
              <TableHead>
                <TableRow>
                  <TableCell>Commit</TableCell>
                  <TableCell>Version</TableCell>
                  <TableCell>Status</TableCell>
                  <TableCell>Created</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {overview.data.recent.map((release) => (
                  <TableRow key={release.id}>
                    <TableCell sx={{ fontFamily: 'monospace' }}>
                      <Link component={RouterLink} to={`${releases}/${release.id}`}>
                        {shortCommit(release.commit)}
                      </Link>
                    </TableCell>
                    <TableCell>{release.raw_version ?? '—'}</TableCell>
                    <TableCell>
                      <Chip
                        size="small"
                        color={statusColor(release.status)}
                        label={releaseStatusLabel(release.status)}
                      />
                    </TableCell>
                    <TableCell>{new Date(release.created_at).toLocaleString()}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </>
        )}
      </CardContent>
    </Card>
  );
};
