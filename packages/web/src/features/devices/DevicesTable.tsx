import PushPinIcon from '@mui/icons-material/PushPin';
import Checkbox from '@mui/material/Checkbox';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import TableSortLabel from '@mui/material/TableSortLabel';
import Chip from '@mui/material/Chip';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';
import {
  absoluteTime,
  addressList,
  lastSeenText,
  releaseLabel,
} from '../../device/device-format.js';
import type { SortColumn } from '../../device/api.js';
import type { DeviceListRow } from '../../device/device-rows.js';
import { releaseBlockerOf } from '../../device/release-blocker.js';
import { DeviceStatusChip } from './DeviceStatusChip.js';
import { OsVersionCell } from './HostOsVersion.js';
import { TagChips } from './TagChips.js';
import { type DeviceListParams, pageSizes, tagColumnsOf } from './useDeviceListParams.js';

// `wide`: a column of less use, shown only from 1536 px (MUI's xl), so that the table fits a
// 1366 or 1440 px laptop screen with the sidebar open, Tags included, without scrolling sideways.
type Column = { label: string; sort?: SortColumn; wide?: boolean };

const columns: Column[] = [
  { label: 'Name', sort: 'device_name' },
  { label: 'Status', sort: 'overall_status' },
  { label: 'Device type' },
  { label: 'Release' },
  { label: 'OS', sort: 'os_version' },
  { label: 'Supervisor', sort: 'supervisor_version', wide: true },
  { label: 'Last seen', sort: 'last_connectivity_event' },
  { label: 'IP address', sort: 'ip_address', wide: true },
  { label: 'Tags' },
];

const wideOnly = { display: { xs: 'none', xl: 'table-cell' } } as const;

const mono = { fontFamily: 'monospace', fontSize: '0.8125rem' } as const;

// Long names and device types are cut with an ellipsis, whole in a tooltip (never
// broken mid-word at 1366 px).
const Truncated = ({ text, width }: { text: string; width: number }) => (
  <Tooltip title={text}>
    <Typography component="span" noWrap sx={{ display: 'block', maxWidth: width }}>
      {text}
    </Typography>
  </Tooltip>
);

// One tag key's value, cut at 100 px with the whole in a tooltip.
const TagValue = ({ device, tagKey }: { device: DeviceListRow; tagKey: string }) => {
  const tag = device.device_tag.find((candidate) => candidate.tag_key === tagKey);
  if (!tag) return <>—</>;
  return (
    <Tooltip title={<span style={{ maxWidth: 200, overflowWrap: 'anywhere' }}>{tag.value}</span>}>
      <Typography component="span" noWrap sx={{ display: 'block', maxWidth: 100 }}>
        {tag.value === '' ? '(empty)' : tag.value}
      </Typography>
    </Tooltip>
  );
};

// What waits for the device, one action a line (a comma-joined list was hard to read).
const QueuedChip = ({ queued }: { queued: readonly string[] }) => (
  <Tooltip
    title={
      <>
        Waiting for the device to come online:
        {queued.map((text, index) => (
          <span key={index} style={{ display: 'block' }}>
            {text}
          </span>
        ))}
      </>
    }
  >
    <Chip
      size="small"
      variant="outlined"
      label={`${queued.length} queued`}
      aria-label={`Waiting for the device to come online: ${queued.join(', ')}`}
    />
  </Tooltip>
);

const DeviceRow = ({
  device,
  tagColumns,
  selected,
  queued,
  onToggle,
  onFrozen,
}: {
  device: DeviceListRow;
  tagColumns: readonly string[];
  selected: boolean;
  // The actions waiting for the device to come online, as the queue names them.
  queued: readonly string[];
  onToggle: () => void;
  onFrozen: () => void;
}) => {
  const release = device.is_running__release[0];
  const addresses = addressList(device.ip_address);
  return (
    <TableRow hover selected={selected}>
      <TableCell padding="checkbox">
        <Checkbox
          checked={selected}
          onChange={onToggle}
          slotProps={{ input: { 'aria-label': `Select ${device.device_name}` } }}
        />
      </TableCell>
      <TableCell sx={{ maxWidth: 200 }}>
        <Link
          component={RouterLink}
          to={`/devices/${device.uuid}`}
          underline="hover"
          title={device.device_name}
          sx={{
            fontWeight: 500,
            display: 'block',
            maxWidth: 180,
            overflow: 'hidden',
            textOverflow: 'ellipsis',
            whiteSpace: 'nowrap',
          }}
          onClick={(event) => {
            // Frozen devices cannot be opened: explain why instead.
            if (!device.is_frozen) return;
            event.preventDefault();
            onFrozen();
          }}
        >
          {device.device_name}
        </Link>
        <Typography variant="caption" color="text.secondary" sx={{ display: 'block', ...mono }}>
          {device.uuid.slice(0, 7)}
        </Typography>
      </TableCell>
      <TableCell>
        <Stack spacing={0.5} sx={{ alignItems: 'flex-start' }}>
          <DeviceStatusChip
            status={device.overall_status}
            progress={device.overall_progress}
            blocker={releaseBlockerOf(device)}
          />
          {queued.length > 0 ? <QueuedChip queued={queued} /> : null}
        </Stack>
      </TableCell>
      <TableCell>
        <Truncated text={device.is_of__device_type[0]?.name ?? ''} width={130} />
      </TableCell>
      <TableCell>
        <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
          {device.is_pinned_on__release ? (
            <Tooltip title="Pinned to a release">
              <PushPinIcon fontSize="inherit" color="action" aria-label="Pinned" />
            </Tooltip>
          ) : null}
          <Typography sx={mono}>{release ? releaseLabel(release) : '—'}</Typography>
        </Stack>
      </TableCell>
      <TableCell>
        <OsVersionCell device={device} />
      </TableCell>
      <TableCell sx={wideOnly}>{device.supervisor_version ?? '—'}</TableCell>
      <TableCell>
        {device.last_connectivity_event ? (
          <Tooltip title={absoluteTime(device.last_connectivity_event)}>
            <span>{lastSeenText(device)}</span>
          </Tooltip>
        ) : (
          'Never'
        )}
      </TableCell>
      <TableCell sx={{ ...mono, ...wideOnly }}>
        {addresses.length === 0
          ? '—'
          : addresses.map((address) => <div key={address}>{address}</div>)}
      </TableCell>
      <TableCell sx={{ minWidth: 120 }}>
        <TagChips tags={device.device_tag} />
      </TableCell>
      {tagColumns.map((key) => (
        <TableCell key={`tag:${key}`}>
          <TagValue device={device} tagKey={key} />
        </TableCell>
      ))}
    </TableRow>
  );
};

const noneQueued: ReadonlyMap<number, readonly string[]> = new Map();
const nothingQueued: readonly string[] = [];

// The fleet's devices, one server page at a time, sorted on the server.
export const DevicesTable = ({
  rows,
  total,
  params,
  onParams,
  selected,
  onToggle,
  onTogglePage,
  onFrozen,
  queued = noneQueued,
}: {
  rows: readonly DeviceListRow[];
  total: number;
  params: DeviceListParams;
  onParams: (changes: Partial<DeviceListParams>) => void;
  selected: ReadonlySet<number>;
  onToggle: (device: DeviceListRow) => void;
  onTogglePage: (select: boolean) => void;
  onFrozen: (device: DeviceListRow) => void;
  // The actions waiting for each device (by id).
  queued?: ReadonlyMap<number, readonly string[]>;
}) => {
  const selectedOnPage = rows.filter((row) => selected.has(row.id)).length;
  return (
    <>
      <TableContainer>
        <Table size="small" aria-label="Devices">
          <TableHead>
            <TableRow>
              <TableCell padding="checkbox">
                <Checkbox
                  checked={rows.length > 0 && selectedOnPage === rows.length}
                  indeterminate={selectedOnPage > 0 && selectedOnPage < rows.length}
                  disabled={rows.length === 0}
                  onChange={(event) => onTogglePage(event.target.checked)}
                  slotProps={{ input: { 'aria-label': 'Select all devices on this page' } }}
                />
              </TableCell>
              {columns.map((column) => {
                const active = column.sort !== undefined && params.sort === column.sort;
                return (
                  <TableCell
                    key={column.label}
                    sortDirection={active ? params.direction : false}
                    sx={{ whiteSpace: 'nowrap', ...(column.wide ? wideOnly : {}) }}
                  >
                    {column.sort === undefined ? (
                      column.label
                    ) : (
                      <TableSortLabel
                        active={active}
                        direction={active ? params.direction : 'asc'}
                        onClick={() =>
                          onParams({
                            sort: column.sort,
                            direction: active && params.direction === 'asc' ? 'desc' : 'asc',
                          })
                        }
                      >
                        {column.label}
                      </TableSortLabel>
                    )}
                  </TableCell>
                );
              })}
              {tagColumnsOf(params).map((key) => (
                <TableCell key={`tag:${key}`} sx={{ whiteSpace: 'nowrap' }}>
                  Tag: {key}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((device) => (
              <DeviceRow
                key={device.id}
                device={device}
                tagColumns={tagColumnsOf(params)}
                selected={selected.has(device.id)}
                queued={queued.get(device.id) ?? nothingQueued}
                onToggle={() => onToggle(device)}
                onFrozen={() => onFrozen(device)}
              />
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      <TablePagination
        component="div"
        count={total}
        page={params.page}
        rowsPerPage={params.pageSize}
        rowsPerPageOptions={[...pageSizes]}
        onPageChange={(_event, page) => onParams({ page })}
        onRowsPerPageChange={(event) => onParams({ pageSize: Number(event.target.value) })}
      />
    </>
  );
};
