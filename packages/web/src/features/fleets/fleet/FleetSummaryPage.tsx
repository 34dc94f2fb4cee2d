import { Box, Stack } from '@mui/material';
import { DevicesCard } from './DevicesCard.js';
import { ReleasesCard } from './ReleasesCard.js';
import { SummaryCard } from './SummaryCard.js';
import { useFleetContext } from '../../../fleet/useFleetContext.js';
import { useFleetRole } from '../../../fleet/api-fleet-role.js';
import { ActiveRolloutBanner } from '../../../fleet/ActiveRolloutBanner.js';

// /{class}s/:fleetId (and .../summary): a rollout in progress, summary, devices and releases
// cards.
export const FleetSummaryPage = () => {
  const { fleet } = useFleetContext();
  const access = useFleetRole(fleet.id);
  return (
    <Stack spacing={2}>
      <ActiveRolloutBanner fleetId={fleet.id} />
      <SummaryCard fleet={fleet} releaseDenied={access.denied('application', 'update')} />
      <Box
        sx={{
          display: 'grid',
          gap: 2,
          gridTemplateColumns: { xs: '1fr', lg: 'minmax(280px, 1fr) 2fr' },
          alignItems: 'start',
        }}
      >
        <DevicesCard fleet={fleet} />
        <ReleasesCard fleet={fleet} />
      </Box>
    </Stack>
  );
};
