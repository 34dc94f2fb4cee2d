import AddIcon from '@mui/icons-material/Add';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { useFleetContext } from '../../fleet/useFleetContext.js';
import { useFleetRole } from '../../fleet/api-fleet-role.js';
import { AddDeviceDialog } from './AddDeviceDialog.js';
import { useFleetDevicePage } from './api.js';
import { DevicesHeader } from './DevicesHeader.js';
import { DevicesLoadError, NoDevicesYet } from './DevicesStates.js';
import { useDeviceSelection } from './useDeviceSelection.js';
import { DeviceSelectionBar } from './DeviceSelectionBar.js';
import { DevicesTable } from './DevicesTable.js';
import { DevicesToolbar } from './DevicesToolbar.js';
import { FrozenDeviceDialog } from './FrozenDeviceDialog.js';
import { LockNotice } from './LockNotice.js';
import { useDeviceActions } from './api-device-actions.js';
import { useFleetQueue } from './api-queued-actions.js';
import { useDeviceListParams } from './useDeviceListParams.js';
import { FleetDevicesMap } from '../location/FleetDevicesMap.js';
import { deviceFilter } from '../../device/api.js';

// /fleets/:fleetId/devices: the fleet's devices, refreshed every 8 s like the fleet lists.
export const FleetDevicesPage = () => {
  const { fleet } = useFleetContext();
  const access = useFleetRole(fleet.id);
  const [params, setParams] = useDeviceListParams();
  const actions = useDeviceActions();
  const devices = useFleetDevicePage(fleet.id, params);
  const queued = useFleetQueue(fleet.id);
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

  const selection = useDeviceSelection(rows);
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
    content = <DevicesLoadError error={devices.error} onRetry={() => void devices.refetch()} />;
  } else if (total === 0 && !filtered) {
    content = <NoDevicesYet addButton={addButton} />;
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
            fleetId={fleet.id}
            filter={deviceFilter({ fleetId: fleet.id, ...params })}
          />
        ) : (
          <DevicesTable
            rows={rows}
            total={total}
            params={params}
            onParams={setParams}
            selected={selection.ids}
            onToggle={selection.toggle}
            onTogglePage={selection.togglePage}
            onFrozen={(device) => setFrozen(device.device_name)}
            queued={queued}
          />
        )}
      </Paper>
    );
  }

  return (
    <Stack spacing={2}>
      <DevicesHeader
        total={devices.isSuccess ? total : null}
        params={params}
        onParams={setParams}
        addButton={addButton}
      />
      <Stack
        direction="row"
        sx={{ alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap', gap: 1.5 }}
      >
        <DevicesToolbar fleetId={fleet.id} params={params} onParams={setParams} />
        <DeviceSelectionBar
          application={fleet}
          selected={selection.selected}
          denied={access.denied}
          actions={actions}
          onClear={selection.clear}
          onDeleted={selection.remove}
        />
      </Stack>
      <LockNotice actions={actions} />
      {content}
      {adding ? (
        <AddDeviceDialog
          application={fleet}
          downloadDenied={access.denied('api_key', 'create')}
          onClose={() => setAdding(false)}
        />
      ) : null}
      <FrozenDeviceDialog deviceName={frozen} onClose={() => setFrozen(null)} />
    </Stack>
  );
};
