import PushPinIcon from '@mui/icons-material/PushPin';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';
import { absoluteTime, plural } from '../../device/device-format.js';
import { type FleetDetail, shortCommit } from '../../fleet/api-fleet-detail.js';
import type { ReleaseListRow } from './api-releases.js';
import { releaseListPageSize } from './release-limits.js';
import { ReleaseStatusChip } from './ReleaseStatusChip.js';

// The fleet's own target: "tracked" when it follows the latest release, else "pinned".
const TargetMarker = ({
  application,
  release,
}: {
  application: FleetDetail;
  release: ReleaseListRow;
}) => {
  if (application.should_be_running__release[0]?.id !== release.id) return null;
  return application.should_track_latest_release ? (
    <Chip size="small" variant="outlined" color="primary" label="Latest, tracked" />
  ) : (
    <Chip
      size="small"
      variant="outlined"
      color="primary"
      icon={<PushPinIcon />}
      label="Pinned"
      title="The fleet is pinned to this release"
    />
  );
};

// One page of the fleet's releases, each linking to its page, with the pagination.
export const ReleasesTable = ({
  application,
  rows,
  total,
  term,
  page,
  onPage,
  base,
  now,
}: {
  application: FleetDetail;
  rows: readonly ReleaseListRow[];
  total: number;
  // The search the rows match ('' for none).
  term: string;
  page: number;
  onPage: (page: number) => void;
  // The release list's path; a release's page is under it.
  base: string;
  // The status rule's clock: when the list was read.
  now: Date;
}) => (
  <Paper variant="outlined">
    <TableContainer>
      <Table size="small" aria-label="Releases">
        <TableHead>
          <TableRow>
            <TableCell>Commit</TableCell>
            <TableCell>Version</TableCell>
            <TableCell>Status</TableCell>
            <TableCell>Author</TableCell>
            <TableCell>Created</TableCell>
            <TableCell>Running on</TableCell>
            <TableCell>Fleet target</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.length === 0 ? (
            <TableRow>
              <TableCell colSpan={7}>
                <Typography color="text.secondary">No release matches “{term}”</Typography>
              </TableCell>
            </TableRow>
          ) : null}
          {rows.map((release) => (
            <TableRow key={release.id} hover>
              <TableCell sx={{ fontFamily: 'monospace' }}>
                <Link component={RouterLink} to={`${base}/${release.id}`}>
                  {shortCommit(release.commit)}
                </Link>
              </TableCell>
              <TableCell>
                <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                  <span>{release.raw_version}</span>
                  {release.is_final ? null : <Chip size="small" label="Draft" />}
                  {release.is_invalidated ? (
                    <Chip size="small" color="warning" label="Invalidated" />
                  ) : null}
                </Stack>
              </TableCell>
              <TableCell>
                <ReleaseStatusChip release={release} now={now} />
              </TableCell>
              <TableCell>{release.is_created_by__user[0]?.username ?? '—'}</TableCell>
              <TableCell>{absoluteTime(release.created_at)}</TableCell>
              <TableCell>{plural(release.is_running_on__device, 'device')}</TableCell>
              <TableCell>
                <TargetMarker application={application} release={release} />
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
    <TablePagination
      component="div"
      count={total}
      page={page}
      rowsPerPage={releaseListPageSize}
      rowsPerPageOptions={[releaseListPageSize]}
      onPageChange={(_event, next) => onPage(next)}
    />
  </Paper>
);
