import { deviceActionPermissions } from '@flotilla/shared/devices/device-action-permissions';
import Stack from '@mui/material/Stack';
import { useFleetRole } from '../../fleet/api-fleet-role.js';
import { classLabels } from '../../fleet/class-names.js';
import type { DeviceDetail } from '../../device/device-rows.js';
import { useDeviceActions } from './api-device-actions.js';
import type { ActionTarget } from './device-actions.js';
import { DevicePageHeader } from './DevicePageHeader.js';
import { LockNotice } from './LockNotice.js';

const rename = deviceActionPermissions.rename;

// The device page's header on each of its sub-pages (actions, settings, location, variables,
// configuration, diagnostics): the same name, Manage tags and Actions menu as the summary.
export const DeviceSectionHeader = ({ detail }: { detail: DeviceDetail }) => {
  const fleet = detail.belongs_to__application[0];
  const access = useFleetRole(fleet?.id ?? 0);
  const actions = useDeviceActions();
  if (!fleet) return null;
  const target: ActionTarget = {
    id: detail.id,
    uuid: detail.uuid,
    name: detail.device_name,
    fleetId: fleet.id,
  };
  return (
    <Stack spacing={2}>
      <DevicePageHeader
        detail={detail}
        target={target}
        access={access}
        actions={actions}
        fleetPath={`${classLabels[fleet.is_of__class].path}/${fleet.id}`}
        renameDenied={access.denied(rename.resource, rename.action)}
      />
      <LockNotice actions={actions} />
    </Stack>
  );
};
