import { useState } from 'react';
import { useNavigate } from 'react-router';
import { ActionConfirmDialog } from './ActionConfirmDialog.js';
import { ActionsMenu } from './ActionsMenu.js';
import { type ActionDevice, type Denied, deviceActionBlock } from './device-action-rules.js';
import {
  type ActionTarget,
  actionSpecs,
  type MenuActionId,
  menuActions,
} from './device-actions.js';
import type { DeviceActions } from './useDeviceActions.js';

// The device page's Actions menu; after a delete the user lands on the device's fleet.
export const DeviceActionsMenu = ({
  target,
  device,
  denied,
  actions,
  fleetPath,
}: {
  target: ActionTarget;
  device: ActionDevice;
  denied: Denied;
  actions: DeviceActions;
  fleetPath: string;
}) => {
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState<MenuActionId | null>(null);
  const start = async (id: MenuActionId): Promise<void> => {
    const done = await actions.run(id, [target]);
    if (id === 'delete' && done.length > 0) void navigate(fleetPath, { replace: true });
  };
  return (
    <>
      <ActionsMenu
        entries={menuActions.map((id) => ({ id, block: deviceActionBlock(id, device, denied) }))}
        busy={actions.pending !== null}
        onSelect={(id) => {
          if (actionSpecs[id].confirm) setConfirming(id);
          else void start(id);
        }}
      />
      <ActionConfirmDialog
        spec={confirming ? actionSpecs[confirming] : null}
        names={[target.name]}
        skipped={[]}
        pending={actions.pending !== null}
        onConfirm={() => {
          if (!confirming) return;
          void start(confirming).finally(() => setConfirming(null));
        }}
        onClose={() => setConfirming(null)}
      />
    </>
  );
};
