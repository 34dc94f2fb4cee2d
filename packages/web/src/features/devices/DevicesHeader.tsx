import Stack from '@mui/material/Stack';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import type { DeviceListParams } from './useDeviceListParams.js';

// The fleet devices' title with the count (once known), the table/map switch and Add device.
export const DevicesHeader = ({
  total,
  params,
  onParams,
  addButton,
}: {
  total: number | null;
  params: DeviceListParams;
  onParams: (changes: Partial<DeviceListParams>) => void;
  addButton: ReactNode;
}) => (
  <Stack
    direction="row"
    spacing={2}
    sx={{ alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap', rowGap: 1 }}
  >
    <Typography variant="h2">Devices{total === null ? '' : ` (${total})`}</Typography>
    <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center' }}>
      <ToggleButtonGroup
        size="small"
        exclusive
        value={params.view}
        aria-label="Devices view"
        onChange={(_event, view: unknown) => {
          if (view === 'table' || view === 'map') onParams({ view, page: params.page });
        }}
      >
        <ToggleButton value="table">Table</ToggleButton>
        <ToggleButton value="map">Map</ToggleButton>
      </ToggleButtonGroup>
      {addButton}
    </Stack>
  </Stack>
);
