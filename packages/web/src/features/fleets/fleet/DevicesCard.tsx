import { errorText } from '@flotilla/sdk/errors';
import { Alert, Button, Card, CardContent, Chip, Skeleton, Stack, Typography } from '@mui/material';
import { statusColors, statusLabels } from '../../../fleet/FleetCard.js';
import { deviceStatuses } from '@flotilla/shared/devices/device-statuses';
import type { FleetDetail } from '../../../fleet/api-fleet-detail.js';
import { useFleetStatusCounts } from './api-fleet-summary.js';

// Total devices and how many are in each overall status.
export const DevicesCard = ({ fleet }: { fleet: FleetDetail }) => {
  const counts = useFleetStatusCounts(fleet.id);
  const total = fleet.owns__device;
  return (
    <Card variant="outlined" component="section" aria-labelledby="devices-card-title">
      <CardContent>
        <Typography id="devices-card-title" variant="h3" gutterBottom>
          Devices
        </Typography>
        <Typography variant="h2" component="p" aria-label={`${total} devices in total`}>
          {total}
        </Typography>
        {counts.isPending ? (
          <Skeleton variant="rounded" height={28} sx={{ mt: 1 }} aria-label="Loading counts" />
        ) : counts.isError ? (
          <Alert
            severity="warning"
            sx={{ mt: 1 }}
            action={
              <Button color="inherit" size="small" onClick={() => void counts.refetch()}>
                Retry
              </Button>
            }
          >
            {errorText(counts.error) ?? 'Could not load the device counts'}
          </Alert>
        ) : total === 0 ? (
          <Typography color="text.secondary">No devices yet</Typography>
        ) : (
          <Stack
            component="ul"
            direction="row"
            aria-label="Devices per status"
            sx={{ flexWrap: 'wrap', gap: 0.75, mt: 1, p: 0, listStyle: 'none' }}
          >
            {deviceStatuses.map((status) => (
              <li key={status}>
                <Chip
                  size="small"
                  variant="outlined"
                  color={counts.data[status] > 0 ? statusColors[status] : 'default'}
                  label={`${counts.data[status]} ${statusLabels[status]}`}
                />
              </li>
            ))}
          </Stack>
        )}
      </CardContent>
    </Card>
  );
};
