import AddIcon from '@mui/icons-material/Add';
import PushPinIcon from '@mui/icons-material/PushPin';
import Button from '@mui/material/Button';
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
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useDeferredValue, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { useBreadcrumbs } from '../../ui/breadcrumbs.js';
import { usePageTitle } from '../../ui/usePageTitle.js';
import { absoluteTime, plural } from '../../device/device-format.js';
import type { FleetDetail } from '../../fleet/api-fleet-detail.js';
import { shortCommit } from '../../fleet/api-fleet-detail.js';
import { useFleetContext } from '../../fleet/useFleetContext.js';
import { classLabels } from '../../fleet/class-names.js';
import { LoadState } from '../../ui/LoadState.js';
import { AddReleaseInstructions } from './AddReleaseInstructions.js';
import { CreateReleaseDialog } from './CreateReleaseDialog.js';
import { DisabledReason } from '../../ui/DisabledReason.js';
import { useFleetRole } from '../../fleet/api-fleet-role.js';
import UploadIcon from '@mui/icons-material/UploadFile';
import { releaseListPageSize } from './release-limits.js';
import { type ReleaseListRow, useReleasePage } from './api-releases.js';
import { ReleaseStatusChip } from './ReleaseStatusChip.js';

export const releasePath = (application: Pick<FleetDetail, 'id' | 'is_of__class'>) =>
  `${classLabels[application.is_of__class].path}/${application.id}/releases`;

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

// /{class}s/:applicationId/releases: the fleet's releases, newest first, 50 a page, refreshed
// every 6 s; search by version or tag.
export const ReleasesPage = () => {
  const { application } = useFleetContext();
  usePageTitle(`Releases · ${application.app_name}`);
  useBreadcrumbs([{ label: 'Releases', to: releasePath(application) }], 1);
  const [page, setPage] = useState(0);
  const [search, setSearch] = useState('');
  const [showInstructions, setShowInstructions] = useState(false);
  const [creating, setCreating] = useState(false);
  const createDenied = useFleetRole(application.id).denied('release', 'create');
  const term = useDeferredValue(search.trim());
  const list = useReleasePage(application.id, page, term);
  const base = releasePath(application);
  // The status rule's clock: when the list was read.
  const now = new Date(list.dataUpdatedAt);
  const empty = list.data?.total === 0 && term === '';
  return (
    <Stack spacing={2}>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
        <Typography variant="h2" sx={{ flex: 1 }}>
          Releases
        </Typography>
        <TextField
          size="small"
          label="Search by version or tag"
          value={search}
          onChange={(event) => {
            setSearch(event.target.value);
            setPage(0);
          }}
        />
        <DisabledReason reason={createDenied}>
          <Button
            variant="outlined"
            startIcon={<UploadIcon />}
            disabled={createDenied !== null}
            onClick={() => setCreating(true)}
          >
            Create release
          </Button>
        </DisabledReason>
        <Button
          variant="contained"
          startIcon={<AddIcon />}
          onClick={() => setShowInstructions((shown) => !shown)}
          aria-expanded={showInstructions || empty}
        >
          Add release
        </Button>
      </Stack>
      <CreateReleaseDialog
        fleetId={application.id}
        releasesPath={base}
        open={creating}
        onClose={() => setCreating(false)}
      />
      {showInstructions || empty ? <AddReleaseInstructions fleetSlug={application.slug} /> : null}
      <LoadState queries={[list]} what="releases" />
      {list.data && !empty ? (
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
                {list.data.rows.length === 0 ? (
                  <TableRow>
                    <TableCell colSpan={7}>
                      <Typography color="text.secondary">No release matches “{term}”</Typography>
                    </TableCell>
                  </TableRow>
                ) : null}
                {list.data.rows.map((release) => (
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
            count={list.data.total}
            page={page}
            rowsPerPage={releaseListPageSize}
            rowsPerPageOptions={[releaseListPageSize]}
            onPageChange={(_event, next) => setPage(next)}
          />
        </Paper>
      ) : null}
    </Stack>
  );
};
