import type { HostUpdateActionId } from '@flotilla/shared/devices/device-action-permissions';
import { type HostUpdateDialogProps, OsUpdateDialog } from './OsUpdateDialog.js';
import { SupervisorUpdateDialog } from './SupervisorUpdateDialog.js';

// The dialog of the Actions menu's OS or supervisor update.
export const HostUpdateDialog = ({
  action,
  ...props
}: HostUpdateDialogProps & { action: HostUpdateActionId }) =>
  action === 'os-update' ? <OsUpdateDialog {...props} /> : <SupervisorUpdateDialog {...props} />;
