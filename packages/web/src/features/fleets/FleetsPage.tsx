import { errorText } from '@flotilla/sdk/errors';
import type { ApplicationClass } from '@flotilla/shared/fleets/fleet-name';
import AddIcon from '@mui/icons-material/Add';
import ChecklistIcon from '@mui/icons-material/Checklist';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useParams } from 'react-router';
import { useBreadcrumbs } from '../../ui/breadcrumbs.js';
import { useClient } from '../../api/client.js';
import { fleetListPolling } from '../../ui/polling.js';
import { usePageTitle } from '../../ui/usePageTitle.js';
import { FleetCard } from '../../fleet/FleetCard.js';
import {
  fleetListQuery,
  fleetStatusCountsQuery,
  organizationIdParam,
} from '../../fleet/api-fleet-list.js';
import { BatchActions } from './batch/BatchActions.js';
import { useSelection } from './batch/useSelection.js';
import { classLabels } from '../../fleet/class-names.js';
import { CreateFleetDialog } from './CreateFleetDialog.js';

const grid = {
  display: 'grid',
  gap: 2,
  gridTemplateColumns: 'repeat(auto-fill, minmax(min(370px, 100%), 370px))',
} as const;

const FleetList = ({ className }: { className: ApplicationClass }) => {
  const labels = classLabels[className];
  usePageTitle(labels.many);
  const client = useClient();
  const organizationId = organizationIdParam(useParams().organizationId);
  const organization = useQuery({
    queryKey: ['organization', organizationId],
    enabled: organizationId !== undefined,
    queryFn: async () =>
      (await client.pine.get({
        resource: 'organization',
        id: organizationId ?? 0,
        options: { $select: ['id', 'name'] },
      })) ?? null,
  });
  useBreadcrumbs(
    organization.data
      ? [{ label: organization.data.name, to: `/orgs/${organization.data.id}${labels.path}` }]
      : [],
  );
  const [creating, setCreating] = useState(false);
  const applications = useQuery({
    ...fleetListQuery(client, className, organizationId),
    ...fleetListPolling(),
  });
  const listIds = useMemo(
    () => applications.data?.map((application) => application.id) ?? [],
    [applications.data],
  );
  const selection = useSelection(listIds);
  const counts = useQuery({
    ...fleetStatusCountsQuery(client, className, organizationId),
    ...fleetListPolling(),
  });
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
        {applications.data?.length ? (
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
      {selection.active && applications.data?.length ? (
        <BatchActions
          className={className}
          applications={applications.data}
          selection={selection}
        />
      ) : null}
      {applications.isPending ? (
        <Box sx={grid} aria-busy="true" aria-label={`Loading ${labels.many.toLowerCase()}`}>
          {[0, 1, 2].map((index) => (
            <Skeleton key={index} variant="rounded" height={324} />
          ))}
        </Box>
      ) : applications.isError ? (
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => void applications.refetch()}>
              Retry
            </Button>
          }
        >
          {errorText(applications.error) ?? `Could not load the ${labels.many.toLowerCase()}`}
        </Alert>
      ) : applications.data.length === 0 ? (
        <Paper variant="outlined" sx={{ p: 6, textAlign: 'center' }}>
          <Typography variant="h2" gutterBottom>
            No {labels.many.toLowerCase()} yet
          </Typography>
          <Typography color="text.secondary" sx={{ mb: 3 }}>
            {className === 'fleet'
              ? 'A fleet groups devices that run the same software. Create one to add your first device.'
              : `Create your first ${labels.one.toLowerCase()} to get started.`}
          </Typography>
          {create}
        </Paper>
      ) : (
        <Box sx={grid}>
          {applications.data.map((application) => (
            <FleetCard
              key={application.id}
              application={application}
              counts={counts.data?.get(application.id)}
              selection={
                selection.active
                  ? {
                      selected: selection.isSelected(application.id),
                      onToggle: () => selection.toggle(application.id),
                    }
                  : undefined
              }
            />
          ))}
        </Box>
      )}
      {creating ? (
        <CreateFleetDialog
          className={className}
          existingNames={applications.data?.map((application) => application.app_name) ?? []}
          onClose={() => setCreating(false)}
        />
      ) : null}
    </Box>
  );
};

export const FleetsPage = () => <FleetList className="fleet" />;
export const AppsPage = () => <FleetList className="app" />;
export const BlocksPage = () => <FleetList className="block" />;
