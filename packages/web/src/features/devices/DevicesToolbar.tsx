import SearchIcon from '@mui/icons-material/Search';
import InputAdornment from '@mui/material/InputAdornment';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useEffect, useState } from 'react';
import { deviceStatuses } from '@flotilla/shared/devices/device-statuses';
import { statusLabel } from '../../device/device-format.js';
import { SavedViewsMenu } from './SavedViewsMenu.js';
import { TagFilterControls } from './TagFilterControls.js';
import type { DeviceListParams } from './useDeviceListParams.js';

// Typing waits this long before the URL (and the query) follow.
const searchDelayMs = 300;

// Search by name or uuid, filter by status and tag, choose tag columns; all live in the URL, and
// named views of them in this browser.
export const DevicesToolbar = ({
  fleetId,
  params,
  onParams,
}: {
  fleetId: number;
  params: DeviceListParams;
  onParams: (changes: Partial<DeviceListParams>) => void;
}) => {
  const [search, setSearch] = useState(params.search);
  // What this field last wrote to the URL, and the URL value last seen: a URL change that this
  // field did not write (back button, breadcrumb) replaces the typed text.
  const [sent, setSent] = useState(params.search);
  const [seen, setSeen] = useState(params.search);
  if (seen !== params.search) {
    setSeen(params.search);
    if (params.search !== sent) {
      setSent(params.search);
      setSearch(params.search);
    }
  }
  useEffect(() => {
    if (search === sent) return undefined;
    const timer = window.setTimeout(() => {
      setSent(search);
      onParams({ search });
    }, searchDelayMs);
    return () => window.clearTimeout(timer);
  }, [search, sent, onParams]);
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ flexWrap: 'wrap' }}>
      <TextField
        size="small"
        type="search"
        label="Search devices"
        placeholder="Name or UUID"
        value={search}
        onChange={(event) => setSearch(event.target.value)}
        slotProps={{
          input: {
            startAdornment: (
              <InputAdornment position="start">
                <SearchIcon fontSize="small" />
              </InputAdornment>
            ),
          },
        }}
        sx={{ minWidth: 240 }}
      />
      <TextField
        select
        size="small"
        label="Status"
        value={params.status}
        onChange={(event) => onParams({ status: event.target.value })}
        // "All statuses" shows as the value when no filter is set.
        slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
        sx={{ minWidth: 200 }}
      >
        <MenuItem value="">All statuses</MenuItem>
        {deviceStatuses.map((status) => (
          <MenuItem key={status} value={status}>
            {statusLabel(status)}
          </MenuItem>
        ))}
      </TextField>
      <TagFilterControls fleetId={fleetId} params={params} onParams={onParams} />
      <SavedViewsMenu params={params} onParams={onParams} />
    </Stack>
  );
};
