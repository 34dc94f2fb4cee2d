import { errorText } from '@flotilla/sdk/errors';
import AddIcon from '@mui/icons-material/Add';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useClient } from '../../api/client.js';
import { fleetListPolling } from '../../ui/polling.js';
import { useFleetContext } from '../../fleet/useFleetContext.js';
import { useFleetRole } from '../../fleet/api-fleet-role.js';
import { AddDeviceDialog } from './AddDeviceDialog.js';
import { DeviceSelectionBar } from './DeviceSelectionBar.js';
import { fetchDevicePage } from '../../device/api.js';
import type { DeviceListRow } from '../../device/device-rows.js';
import { DevicesTable } from './DevicesTable.js';
import { DevicesToolbar } from './DevicesToolbar.js';
import { FrozenDeviceDialog } from './FrozenDeviceDialog.js';
import { LockNotice } from './LockNotice.js';
import { useDeviceActions } from './useDeviceActions.js';
import { useDeviceListParams } from './useDeviceListParams.js';
import { FleetDevicesMap } from '../location/FleetDevicesMap.js';
import { deviceFilter } from '../../device/api.js';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import { deviceKeys } from '../../device/query-keys.js';

// /fleets/:applicationId/devices: the fleet's devices, refreshed every 8 s (seed 001 section 9).
export const FleetDevicesPage = () => {
  const { application } = useFleetContext();
  const client = useClient();
  const access = useFleetRole(application.id);
  const [params, setParams] = useDeviceListParams();
  const actions = useDeviceActions();
  const devices = useQuery({
    queryKey: [...deviceKeys.fleet(application.id), params],
    queryFn: () => fetchDevicePage(client, { applicationId: application.id, ...params }),
    // The previous page stays on screen while the next one loads.
    placeholderData: keepPreviousData,
    ...fleetListPolling(),
  });
  // Selected devices by id; the selection survives paging and filtering.
  const [selection, setSelection] = useState<ReadonlyMap<number, DeviceListRow>>(new Map());
  const [adding, setAdding] = useState(false);
  const [frozen, setFrozen] = useState<string | null>(null);
  const rows = devices.data?.rows ?? [];
  const total = devices.data?.total ?? 0;

  // A page beyond the end (devices deleted, filter narrowed) moves back to the last one.
  const lastPage = Math.max(0, Math.ceil(total / params.pageSize) - 1);
  const pageTooFar = devices.isSuccess && !devices.isPlaceholderData && params.page > lastPage;
  useEffect(() => {
    if (pageTooFar) setParams({ page: lastPage });
  }, [pageTooFar, lastPage, setParams]);

  const toggle = (device: DeviceListRow): void =>
    setSelection((current) => {
      const next = new Map(current);
      if (next.has(device.id)) next.delete(device.id);
      else next.set(device.id, device);
      return next;
    });
  const togglePage = (select: boolean): void =>
    setSelection((current) => {
      const next = new Map(current);
      for (const row of rows) {
        if (select) next.set(row.id, row);
        else next.delete(row.id);
      }
      return next;
    });
  // The freshest copy of each selected device (the table refreshes every 8 s).
  const selected = [...selection.values()].map(
    (device) => rows.find((row) => row.id === device.id) ?? device,
  );
  const filtered = params.search !== '' || params.status !== '' || params.tag !== '';

  const addButton = (
    <Button variant="contained" startIcon={<AddIcon />} onClick={() => setAdding(true)}>
      Add device
    </Button>
  );

  let content;
  if (devices.isPending) {
    content = <Skeleton variant="rounded" height={320} aria-label="Loading devices" />;
  } else if (devices.isError) {
    content = (
      <Alert
        severity="error"
        action={
          <Button color="inherit" size="small" onClick={() => void devices.refetch()}>
            Retry
          </Button>
        }
      >
        {errorText(devices.error) ?? 'Could not load the devices'}
      </Alert>
    );
  } else if (total === 0 && !filtered) {
    content = (
      <Paper variant="outlined" sx={{ p: 6, textAlign: 'center' }}>
        <Typography variant="h3" component="h2" gutterBottom>
          No devices yet
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 3 }}>
          Add a device to this fleet: download its configuration and start the agent with it.
        </Typography>
        {addButton}
      </Paper>
    );
  } else {
    content = (
      <Paper variant="outlined">
        {total === 0 ? (
          <Box sx={{ p: 4, textAlign: 'center' }}>
            <Typography color="text.secondary" gutterBottom>
              No devices match the filters
            </Typography>
            <Button onClick={() => setParams({ search: '', status: '' })}>Clear filters</Button>
          </Box>
        ) : params.view === 'map' ? (
          <FleetDevicesMap
            applicationId={application.id}
            filter={deviceFilter({ applicationId: application.id, ...params })}
          />
        ) : (
          <DevicesTable
            rows={rows}
            total={total}
            params={params}
            onParams={setParams}
            selected={new Set(selection.keys())}
            onToggle={toggle}
            onTogglePage={togglePage}
            onFrozen={(device) => setFrozen(device.device_name)}
          />
        )}
      </Paper>
    );
  }

  return (
    <Stack spacing={2}>
      <Stack
        direction="row"
        spacing={2}
        sx={{ alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap', rowGap: 1 }}
      >
        <Typography variant="h2">Devices{devices.isSuccess ? ` (${total})` : ''}</Typography>
        <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center' }}>
          <ToggleButtonGroup
            size="small"
            exclusive
            value={params.view}
            aria-label="Devices view"
            onChange={(_event, view: unknown) => {
              if (view === 'table' || view === 'map') setParams({ view, page: params.page });
            }}
          >
            <ToggleButton value="table">Table</ToggleButton>
            <ToggleButton value="map">Map</ToggleButton>
          </ToggleButtonGroup>
          {addButton}
        </Stack>
      </Stack>
      <Stack
        direction="row"
        sx={{ alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap', gap: 1.5 }}
      >
        <DevicesToolbar applicationId={application.id} params={params} onParams={setParams} />
        <DeviceSelectionBar
          application={application}
          selected={selected}
          denied={access.denied}
          actions={actions}
          onClear={() => setSelection(new Map())}
          onDeleted={(ids) =>
            setSelection((current) => {
              const next = new Map(current);
              for (const id of ids) next.delete(id);
              return next;
            })
          }
        />
      </Stack>
      <LockNotice actions={actions} />
      {content}
      {adding ? (
        <AddDeviceDialog
          application={application}
          downloadDenied={access.denied('api_key', 'create')}
          onClose={() => setAdding(false)}
        />
      ) : null}
      <FrozenDeviceDialog deviceName={frozen} onClose={() => setFrozen(null)} />
    </Stack>
  );
};
