import type { ApplicationClass } from '@flotilla/shared/fleets/fleet-name';
import AddIcon from '@mui/icons-material/Add';
import ChecklistIcon from '@mui/icons-material/Checklist';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useMemo, useState } from 'react';
import { useParams } from 'react-router';
import { useBreadcrumbs } from '../../ui/breadcrumbs.js';
import { usePageTitle } from '../../ui/usePageTitle.js';
import { organizationIdParam } from '../../fleet/api-fleet-list.js';
import { classLabels } from '../../fleet/class-names.js';
import { useFleetList, useFleetListStatusCounts, useOrganizationName } from './api.js';
import { BatchActions } from './batch/BatchActions.js';
import { useSelection } from './batch/useSelection.js';
import { CreateFleetDialog } from './CreateFleetDialog.js';
import { FleetListContent } from './FleetListContent.js';

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
        <BatchActions className={className} fleets={fleets.data} selection={selection} />
      ) : null}
      <FleetListContent
        className={className}
        fleets={fleets}
        counts={counts}
        selection={selection}
        create={create}
      />
      {creating ? (
        <CreateFleetDialog
          className={className}
          existingNames={fleets.data?.map((fleet) => fleet.app_name) ?? []}
          onClose={() => setCreating(false)}
        />
      ) : null}
    </Box>
  );
};

export const FleetsPage = () => <FleetList className="fleet" />;
export const AppsPage = () => <FleetList className="app" />;
export const BlocksPage = () => <FleetList className="block" />;
