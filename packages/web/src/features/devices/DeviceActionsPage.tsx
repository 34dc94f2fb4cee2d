import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import { Link as RouterLink } from 'react-router';
import type { DeviceDetail } from '../../device/device-rows.js';
import { DeviceSection } from '../../device/DeviceSection.js';
import { useDeviceActions } from './api-device-actions.js';
import { actionSpecs } from './device-actions.js';
import { DeviceActionRow } from './DeviceActionRow.js';
import { DeviceAlerts } from './DeviceAlerts.js';
import { deviceActionsDocs } from './field-actions.js';
import { LockNotice } from './LockNotice.js';
import { flowActions, useDeviceDetailFlow } from './useDeviceActionFlow.js';

const DeviceActions = ({ detail }: { detail: DeviceDetail }) => {
  const actions = useDeviceActions();
  const { flow } = useDeviceDetailFlow(detail, actions, true);
  const busy = actions.pending !== null;
  return (
    <Stack spacing={2}>
      <LockNotice actions={actions} />
      <DeviceAlerts detail={detail} />
      <Paper variant="outlined" sx={{ px: 3, py: 1 }}>
        {flowActions.map((id) => (
          <DeviceActionRow
            key={id}
            id={id}
            flow={flow}
            busy={busy}
            description={
              <>
                {actionSpecs[id].blurb}{' '}
                <Link
                  component={RouterLink}
                  to={actionSpecs[id].docs ?? deviceActionsDocs}
                  aria-label={`${actionSpecs[id].title}: documentation`}
                >
                  Documentation
                </Link>
              </>
            }
          />
        ))}
      </Paper>
      {flow.dialogs}
    </Stack>
  );
};

// /devices/:uuid/actions: every action of the Actions menu with what it does, its documentation
// and its button, disabled with the reason when it cannot run (permission, device state).
export const DeviceActionsPage = () => (
  <DeviceSection title="Actions">{(device) => <DeviceActions detail={device} />}</DeviceSection>
);
