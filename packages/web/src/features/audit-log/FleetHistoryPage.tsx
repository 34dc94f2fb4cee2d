import { auditHistoryPermission } from '@flotilla/shared/audit-log/audit-permission';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { RequireFleetPermission } from '../../fleet/RequireFleetPermission.js';
import { useFleetContext } from '../../fleet/useFleetContext.js';
import { usePageTitle } from '../../ui/usePageTitle.js';
import { AuditLogView } from './AuditLogView.js';

// /fleets/:fleetId/history (the fleet's administrators): every recorded change of the fleet and
// its devices.
export const FleetHistoryPage = () => {
  usePageTitle('History');
  const { fleet } = useFleetContext();
  return (
    <RequireFleetPermission fleetId={fleet.id} needs={auditHistoryPermission}>
      <Stack spacing={2}>
        <Typography variant="h2">History</Typography>
        <AuditLogView source={{ kind: 'fleet', id: fleet.id }} filter={{}} label="Fleet history" />
      </Stack>
    </RequireFleetPermission>
  );
};
