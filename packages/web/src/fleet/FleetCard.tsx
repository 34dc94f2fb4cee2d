import PushPinIcon from '@mui/icons-material/PushPin';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';
import { type DeviceStatus, deviceStatuses } from '@flotilla/shared/devices/device-statuses';
import type { FleetListItem } from './api-fleet-list.js';
import { fleetPath } from './class-names.js';

export const statusLabels: Record<DeviceStatus, string> = {
  operational: 'Online',
  updating: 'Updating',
  configuring: 'Configuring',
  'post-provisioning': 'Post-provisioning',
  'reduced-functionality': 'Reduced functionality',
  disconnected: 'Offline',
  inactive: 'Inactive',
};

export const statusColors: Record<
  DeviceStatus,
  'success' | 'info' | 'warning' | 'error' | 'default'
> = {
  operational: 'success',
  updating: 'info',
  configuring: 'info',
  'post-provisioning': 'info',
  'reduced-functionality': 'warning',
  disconnected: 'error',
  inactive: 'default',
};

export const FleetCard = ({
  fleet,
  counts,
  selection,
}: {
  fleet: FleetListItem;
  counts: Record<DeviceStatus, number> | undefined;
  // In selection mode: the card's checkbox state.
  selection?: { selected: boolean; onToggle: () => void } | undefined;
}) => {
  const release = fleet.should_be_running__release[0];
  const deviceType = fleet.is_for__device_type[0];
  const organization = fleet.organization[0];
  const selected = selection?.selected === true;
  return (
    <Card
      sx={{
        height: 324,
        display: 'flex',
        position: 'relative',
        outline: selected ? 2 : 0,
        outlineColor: 'primary.main',
        outlineOffset: -2,
      }}
    >
      {selection ? (
        // Beside the link, not inside it: ticking the box never opens the fleet.
        <Checkbox
          checked={selected}
          onChange={selection.onToggle}
          slotProps={{ input: { 'aria-label': `Select ${fleet.app_name}` } }}
          sx={{ position: 'absolute', top: 8, right: 8, zIndex: 1 }}
        />
      ) : null}
      <CardActionArea
        component={RouterLink}
        to={fleetPath(fleet.is_of__class, fleet.id)}
        sx={{
          p: 2.5,
          display: 'flex',
          flexDirection: 'column',
          alignItems: 'stretch',
          justifyContent: 'flex-start',
        }}
      >
        <Typography variant="h3" noWrap title={fleet.app_name} sx={{ pr: selection ? 5 : 0 }}>
          {fleet.app_name}
        </Typography>
        <Typography variant="body2" color="text.secondary" noWrap sx={{ pr: selection ? 5 : 0 }}>
          {organization?.name ?? ''} · {deviceType?.name ?? 'Unknown device type'}
        </Typography>
        <Box sx={{ mt: 3 }}>
          <Typography variant="overline" color="text.secondary">
            Devices
          </Typography>
          <Typography variant="h2" component="p" aria-label={`${fleet.owns__device} devices`}>
            {fleet.owns__device}
          </Typography>
          <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 0.75, mt: 1 }}>
            {deviceStatuses
              .filter((status) => (counts?.[status] ?? 0) > 0)
              .map((status) => (
                <Chip
                  key={status}
                  size="small"
                  color={statusColors[status]}
                  variant="outlined"
                  label={`${counts?.[status] ?? 0} ${statusLabels[status]}`}
                />
              ))}
          </Stack>
        </Box>
        <Box sx={{ mt: 'auto' }}>
          <Typography variant="overline" color="text.secondary">
            Release
          </Typography>
          <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
            {release && !fleet.should_track_latest_release ? (
              <Tooltip title="Pinned to this release">
                <PushPinIcon fontSize="small" color="action" aria-label="Pinned" />
              </Tooltip>
            ) : null}
            <Typography variant="body2" sx={{ fontFamily: 'monospace' }} noWrap>
              {release ? (release.raw_version ?? release.commit.slice(0, 7)) : 'No release'}
            </Typography>
          </Stack>
        </Box>
      </CardActionArea>
    </Card>
  );
};
