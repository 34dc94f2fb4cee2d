import PushPinIcon from '@mui/icons-material/PushPin';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';
import { type DeviceStatus, deviceStatuses } from '@flotilla/shared/devices/device-statuses';
import type { FleetListItem } from '../../fleet/api-fleet-list.js';
import { statusColors, statusLabels } from '../../fleet/FleetCard.js';
import { fleetPath } from '../../fleet/class-names.js';
import { type EntityColumn, EntityTable } from '../../ui/entity-list/EntityTable.js';
import type { Selection } from './batch/useSelection.js';

const headers = ['Name', 'Organization', 'Default device type', 'Devices', 'Status', 'Release'];

const StatusChips = ({ counts }: { counts: Record<DeviceStatus, number> | undefined }) => {
  const shown = deviceStatuses.filter((status) => (counts?.[status] ?? 0) > 0);
  if (shown.length === 0)
    return (
      <Typography variant="body2" color="text.secondary">
        —
      </Typography>
    );
  return (
    <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 0.5 }}>
      {shown.map((status) => (
        <Chip
          key={status}
          size="small"
          color={statusColors[status]}
          variant="outlined"
          label={`${counts?.[status] ?? 0} ${statusLabels[status]}`}
        />
      ))}
    </Stack>
  );
};

const ReleaseCell = ({ fleet }: { fleet: FleetListItem }) => {
  const release = fleet.should_be_running__release[0];
  if (!release)
    return (
      <Typography variant="body2" color="text.secondary">
        No release
      </Typography>
    );
  return (
    <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
      {fleet.should_track_latest_release ? null : (
        <Tooltip title="Pinned to this release">
          <PushPinIcon fontSize="small" color="action" aria-label="Pinned" />
        </Tooltip>
      )}
      <Link
        component={RouterLink}
        to={`${fleetPath(fleet.is_of__class, fleet.id)}/releases/${release.id}`}
        sx={{ fontFamily: 'monospace' }}
      >
        {release.raw_version ?? release.commit.slice(0, 7)}
      </Link>
    </Stack>
  );
};

const columnsFor = (
  counts: ReadonlyMap<number, Record<DeviceStatus, number>> | undefined,
): EntityColumn<FleetListItem>[] => [
  {
    key: 'name',
    header: 'Name',
    cell: (fleet) => (
      <Link component={RouterLink} to={fleetPath(fleet.is_of__class, fleet.id)}>
        {fleet.app_name}
      </Link>
    ),
  },
  { key: 'organization', header: 'Organization', cell: (fleet) => fleet.organization[0]?.name },
  {
    key: 'device-type',
    header: 'Default device type',
    cell: (fleet) => fleet.is_for__device_type[0]?.name ?? 'Unknown device type',
  },
  { key: 'devices', header: 'Devices', cell: (fleet) => fleet.owns__device },
  {
    key: 'status',
    header: 'Status',
    cell: (fleet) => <StatusChips counts={counts?.get(fleet.id)} />,
  },
  { key: 'release', header: 'Release', cell: (fleet) => <ReleaseCell fleet={fleet} /> },
];

// The fleets as rows, one column per field the cards show; in selection mode a checkbox each.
export const FleetTable = ({
  label,
  fleets,
  counts,
  selection,
}: {
  label: string;
  fleets: readonly FleetListItem[];
  counts: ReadonlyMap<number, Record<DeviceStatus, number>> | undefined;
  selection: Selection;
}) => (
  <EntityTable
    label={label}
    rows={fleets}
    columns={columnsFor(counts)}
    frame="container"
    hover
    {...(selection.active
      ? {
          selection: {
            selected: selection.selected,
            // The table reports the whole new selection; the list's selection changes per id.
            onChange: (ids: readonly number[]) => {
              for (const fleet of fleets) {
                if (ids.includes(fleet.id) !== selection.isSelected(fleet.id)) {
                  selection.toggle(fleet.id);
                }
              }
            },
            rowLabel: (fleet: FleetListItem) => `Select ${fleet.app_name}`,
            allLabel: 'Select all rows',
          },
        }
      : {})}
  />
);

// The table's frame with placeholder rows while the list loads.
export const FleetTableSkeleton = ({ label }: { label: string }) => (
  <TableContainer component={Paper} variant="outlined" aria-busy="true" aria-label={label}>
    <Table>
      <TableHead>
        <TableRow>
          {headers.map((header) => (
            <TableCell key={header}>{header}</TableCell>
          ))}
        </TableRow>
      </TableHead>
      <TableBody>
        {[0, 1, 2].map((row) => (
          <TableRow key={row}>
            {headers.map((header) => (
              <TableCell key={header}>
                <Skeleton variant="text" />
              </TableCell>
            ))}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  </TableContainer>
);
