import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { useState } from 'react';
import type { FleetRoleState } from '../../fleet/api-fleet-role.js';
import type { DeviceDetail } from '../../device/device-rows.js';
import { DisabledReason } from '../../ui/DisabledReason.js';
import type { DeviceActions } from './api-device-actions.js';
import type { ActionTarget } from './device-actions.js';
import { DeviceActionsMenu } from './DeviceActionsMenu.js';
import { DeviceName } from './DeviceName.js';
import { fieldDeviceOfDetail } from './field-action-device.js';
import { ManageTagsDialog, type TaggedDevice } from './ManageTagsDialog.js';

// The device page's title row: the name (renamed in place), Manage tags and the Actions menu.
export const DevicePageHeader = ({
  detail,
  target,
  access,
  actions,
  fleetPath,
  renameDenied,
}: {
  detail: DeviceDetail;
  target: ActionTarget;
  access: FleetRoleState;
  actions: DeviceActions;
  fleetPath: string;
  renameDenied: string | null;
}) => {
  const [tagging, setTagging] = useState<TaggedDevice[] | null>(null);
  const tagsDenied = access.denied('device_tag', 'create');
  return (
    <Stack
      direction="row"
      spacing={2}
      sx={{ alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap', rowGap: 1 }}
    >
      <DeviceName deviceId={detail.id} name={detail.device_name} denied={renameDenied} />
      <Stack direction="row" spacing={1}>
        <DisabledReason reason={tagsDenied}>
          <Button
            variant="outlined"
            disabled={tagsDenied !== null}
            onClick={() =>
              setTagging([
                { id: detail.id, name: detail.device_name, device_tag: detail.device_tag },
              ])
            }
          >
            Manage tags
          </Button>
        </DisabledReason>
        <DeviceActionsMenu
          device={fieldDeviceOfDetail(detail, target)}
          denied={access.denied}
          actions={actions}
          fleetPath={fleetPath}
        />
      </Stack>
      <ManageTagsDialog devices={tagging} onClose={() => setTagging(null)} />
    </Stack>
  );
};
