import type { ApplicationClass } from '@flotilla/shared/fleets/fleet-name';
import AddIcon from '@mui/icons-material/Add';
import ChecklistIcon from '@mui/icons-material/Checklist';
import TableRowsIcon from '@mui/icons-material/TableRows';
import ViewModuleIcon from '@mui/icons-material/ViewModule';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { lazy, Suspense, useMemo, useState } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { useBreadcrumbs } from '../../ui/breadcrumbs.js';
import { usePageTitle } from '../../ui/usePageTitle.js';
import { organizationIdParam } from '../../fleet/api-fleet-list.js';
import { classLabels } from '../../fleet/class-names.js';
import { useFleetList, useFleetListStatusCounts, useOrganizationName } from './api.js';
import { useSelection } from './batch/useSelection.js';
import { FleetListContent, type FleetListView } from './FleetListContent.js';

// Loaded when first opened: the cold load of the list does not compile the dialogs' forms.
const BatchActions = lazy(async () => ({
  default: (await import('./batch/BatchActions.js')).BatchActions,
}));
const CreateFleetDialog = lazy(async () => ({
  default: (await import('./CreateFleetDialog.js')).CreateFleetDialog,
}));

const FleetList = ({ className }: { className: ApplicationClass }) => {
  const labels = classLabels[className];
  usePageTitle(labels.many);
  const organizationId = organizationIdParam(useParams().organizationId);
  const organization = useOrganizationName(organizationId);
  useBreadcrumbs(
    organization.data
      ? [{ label: organization.data.name, to: `/orgs/${organization.data.id}${labels.path}` }]
      : [],
  );
  const [creating, setCreating] = useState(false);
  // The chosen view lives in the URL, so a link or a reload keeps it.
  const [searchParams, setSearchParams] = useSearchParams();
  const view: FleetListView = searchParams.get('view') === 'table' ? 'table' : 'cards';
  const chooseView = (next: FleetListView) =>
    setSearchParams(
      (current) => {
        const params = new URLSearchParams(current);
        if (next === 'table') params.set('view', 'table');
        else params.delete('view');
        return params;
      },
      { replace: true },
    );
  const fleets = useFleetList(className, organizationId);
  const listIds = useMemo(() => fleets.data?.map((fleet) => fleet.id) ?? [], [fleets.data]);
  const selection = useSelection(listIds);
  const counts = useFleetListStatusCounts(className, organizationId);
  const create = (
    <Button variant="contained" startIcon={<AddIcon />} onClick={() => setCreating(true)}>
      Create {labels.one.toLowerCase()}
    </Button>
  );
  return (
    <Box>
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', mb: 3 }}>
        <Typography variant="h1">
          {organization.data ? `${labels.many} of ${organization.data.name}` : labels.many}
        </Typography>
        {fleets.data?.length ? (
          <Stack direction="row" spacing={1}>
            <ToggleButtonGroup
              size="small"
              exclusive
              value={view}
              onChange={(_event, next: unknown) => {
                // Clicking the chosen view again answers null: the view stays.
                if (next === 'cards' || next === 'table') chooseView(next);
              }}
              aria-label="View"
            >
              <ToggleButton value="cards" aria-label="Cards">
                <ViewModuleIcon fontSize="small" />
              </ToggleButton>
              <ToggleButton value="table" aria-label="Table">
                <TableRowsIcon fontSize="small" />
              </ToggleButton>
            </ToggleButtonGroup>
            {selection.active ? null : (
              <Button variant="outlined" startIcon={<ChecklistIcon />} onClick={selection.start}>
                Select
              </Button>
            )}
            {create}
          </Stack>
        ) : null}
      </Stack>
      {selection.active && fleets.data?.length ? (
        <Suspense fallback={null}>
          <BatchActions className={className} fleets={fleets.data} selection={selection} />
        </Suspense>
      ) : null}
      <FleetListContent
        className={className}
        view={view}
        fleets={fleets}
        counts={counts}
        selection={selection}
        create={create}
      />
      {creating ? (
        <Suspense fallback={null}>
          <CreateFleetDialog
            className={className}
            existingNames={fleets.data?.map((fleet) => fleet.app_name) ?? []}
            onClose={() => setCreating(false)}
          />
        </Suspense>
      ) : null}
    </Box>
  );
};

export const FleetsPage = () => <FleetList className="fleet" />;
export const AppsPage = () => <FleetList className="app" />;
export const BlocksPage = () => <FleetList className="block" />;
