import Button from '@mui/material/Button';
import type { DeviceDetail } from '../../device/device-rows.js';
import { DisabledReason } from '../../ui/DisabledReason.js';
import type { DeviceActions } from './api-device-actions.js';
import { useDeviceDetailFlow } from './useDeviceActionFlow.js';

// The summary's move button beside the fleet: the Actions menu's "Move device" form. Which
// fleets can take the device is asked when the form opens (it says when none can).
export const MoveDeviceButton = ({
  detail,
  actions,
}: {
  detail: DeviceDetail;
  actions: DeviceActions;
}) => {
  const { flow } = useDeviceDetailFlow(detail, actions, false);
  const block = flow.blockOf('move');
  return (
    <>
      <DisabledReason reason={block}>
        <Button
          size="small"
          variant="text"
          aria-label="Move device to another fleet"
          disabled={block !== null || actions.pending !== null}
          onClick={() => flow.select('move')}
          sx={{ minWidth: 0, py: 0 }}
        >
          Move
        </Button>
      </DisabledReason>
      {flow.dialogs}
    </>
  );
};
