import AddIcon from '@mui/icons-material/Add';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useDeferredValue, useState } from 'react';
import { useBreadcrumbs } from '../../ui/breadcrumbs.js';
import { usePageTitle } from '../../ui/usePageTitle.js';
import type { FleetDetail } from '../../fleet/api-fleet-detail.js';
import { useFleetContext } from '../../fleet/useFleetContext.js';
import { classLabels } from '../../fleet/class-names.js';
import { LoadState } from '../../ui/LoadState.js';
import { AddReleaseInstructions } from './AddReleaseInstructions.js';
import { CreateReleaseDialog } from './CreateReleaseDialog.js';
import { DisabledReason } from '../../ui/DisabledReason.js';
import { useFleetRole } from '../../fleet/api-fleet-role.js';
import UploadIcon from '@mui/icons-material/UploadFile';
import { useReleasePage } from './api-releases.js';
import { ReleasesTable } from './ReleasesTable.js';
import { addHint, createHint } from './release-rules.js';

export const releasePath = (fleet: Pick<FleetDetail, 'id' | 'is_of__class'>) =>
  `${classLabels[fleet.is_of__class].path}/${fleet.id}/releases`;

// /{class}s/:fleetId/releases: the fleet's releases, newest first, 50 a page, refreshed
// every 6 s; search by version or tag.
export const ReleasesPage = () => {
  const { fleet } = useFleetContext();
  usePageTitle(`Releases · ${fleet.app_name}`);
  useBreadcrumbs([{ label: 'Releases', to: releasePath(fleet) }], 1);
  const [page, setPage] = useState(0);
  const [search, setSearch] = useState('');
  const [showInstructions, setShowInstructions] = useState(false);
  const [creating, setCreating] = useState(false);
  const createDenied = useFleetRole(fleet.id).denied('release', 'create');
  const term = useDeferredValue(search.trim());
  const list = useReleasePage(fleet.id, page, term);
  const base = releasePath(fleet);
  // The status rule's clock: when the list was read.
  const now = new Date(list.dataUpdatedAt);
  const empty = list.data?.total === 0 && term === '';
  const createButton = (
    <Button
      variant="outlined"
      startIcon={<UploadIcon />}
      disabled={createDenied !== null}
      onClick={() => setCreating(true)}
    >
      Create release
    </Button>
  );
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
        {/* Two ways to a release, each saying which it is. */}
        {createDenied === null ? (
          <Tooltip describeChild title={createHint}>
            {createButton}
          </Tooltip>
        ) : (
          <DisabledReason reason={createDenied}>{createButton}</DisabledReason>
        )}
        <Tooltip describeChild title={addHint}>
          <Button
            variant="contained"
            startIcon={<AddIcon />}
            onClick={() => setShowInstructions((shown) => !shown)}
            aria-expanded={showInstructions || empty}
          >
            Add release
          </Button>
        </Tooltip>
      </Stack>
      <CreateReleaseDialog
        fleetId={fleet.id}
        releasesPath={base}
        open={creating}
        onClose={() => setCreating(false)}
      />
      {showInstructions || empty ? <AddReleaseInstructions fleetSlug={fleet.slug} /> : null}
      <LoadState queries={[list]} what="releases" />
      {list.data && !empty ? (
        <ReleasesTable
          application={fleet}
          rows={list.data.rows}
          total={list.data.total}
          term={term}
          page={page}
          onPage={setPage}
          base={base}
          now={now}
        />
      ) : null}
    </Stack>
  );
};
