import { errorText } from '@flotilla/sdk/errors';
import type { ApplicationClass } from '@flotilla/shared/fleets/fleet-name';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { FleetCard } from '../../fleet/FleetCard.js';
import { classLabels } from '../../fleet/class-names.js';
import type { useFleetList, useFleetListStatusCounts } from './api.js';
import type { Selection } from './batch/useSelection.js';
import { FleetTable, FleetTableSkeleton } from './FleetTable.js';

// How the list shows its fleets: cards (the default) or a table (?view=table).
export type FleetListView = 'cards' | 'table';

const grid = {
  display: 'grid',
  gap: 2,
  gridTemplateColumns: 'repeat(auto-fill, minmax(min(370px, 100%), 370px))',
} as const;

// The list's body: skeletons while loading, the error with a retry, the empty state with the
// create button, or the fleets as cards or table rows (with checkboxes in selection mode).
export const FleetListContent = ({
  className,
  view,
  fleets,
  counts,
  selection,
  create,
}: {
  className: ApplicationClass;
  view: FleetListView;
  fleets: ReturnType<typeof useFleetList>;
  counts: ReturnType<typeof useFleetListStatusCounts>;
  selection: Selection;
  create: ReactNode;
}) => {
  const labels = classLabels[className];
  if (fleets.isPending && view === 'table')
    return <FleetTableSkeleton label={`Loading ${labels.many.toLowerCase()}`} />;
  if (fleets.isPending)
    return (
      <Box sx={grid} aria-busy="true" aria-label={`Loading ${labels.many.toLowerCase()}`}>
        {[0, 1, 2].map((index) => (
          <Skeleton key={index} variant="rounded" height={324} />
        ))}
      </Box>
    );
  if (fleets.isError)
    return (
      <Alert
        severity="error"
        action={
          <Button color="inherit" size="small" onClick={() => void fleets.refetch()}>
            Retry
          </Button>
        }
      >
        {errorText(fleets.error) ?? `Could not load the ${labels.many.toLowerCase()}`}
      </Alert>
    );
  if (fleets.data.length === 0)
    return (
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
    );
  if (view === 'table')
    return (
      <FleetTable
        label={labels.many}
        fleets={fleets.data}
        counts={counts.data}
        selection={selection}
      />
    );
  return (
    <Box sx={grid}>
      {fleets.data.map((fleet) => (
        <FleetCard
          key={fleet.id}
          fleet={fleet}
          counts={counts.data?.get(fleet.id)}
          selection={
            selection.active
              ? {
                  selected: selection.isSelected(fleet.id),
                  onToggle: () => selection.toggle(fleet.id),
                }
              : undefined
          }
        />
      ))}
    </Box>
  );
};
