import type {
  FieldActionId,
  HostUpdateActionId,
} from '@flotilla/shared/devices/device-action-permissions';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { ActionConfirmDialog } from './ActionConfirmDialog.js';
import { ActionsMenu } from './ActionsMenu.js';
import { type Denied, deviceActionBlock, queuesOffline } from './device-action-rules.js';
import {
  type ActionRequest,
  actionSpecs,
  type MenuActionId,
  menuActions,
  plainRequest,
} from './device-actions.js';
import type { FieldActionDevice } from './field-action-device.js';
import { isFieldAction } from './field-actions.js';
import { FieldActionDialog } from './FieldActionDialog.js';
import { isHostUpdateAction } from './host-update-actions.js';
import { HostUpdateDialog } from './HostUpdateDialog.js';
import type { DeviceActions } from './api-device-actions.js';
import { useMoveBlock } from './api-move.js';

type PlainActionId = Exclude<MenuActionId, FieldActionId | HostUpdateActionId>;

// The device page's Actions menu. After a delete the user lands on the device's fleet, after a
// move on the fleet the device moved to: the device page of a deleted device is gone.
export const DeviceActionsMenu = ({
  device,
  denied,
  actions,
  fleetPath,
}: {
  device: FieldActionDevice;
  denied: Denied;
  actions: DeviceActions;
  fleetPath: string;
}) => {
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState<PlainActionId | null>(null);
  const [editing, setEditing] = useState<FieldActionId | null>(null);
  const [updating, setUpdating] = useState<HostUpdateActionId | null>(null);
  // The move targets are asked for once the menu opens, and only when the user may move.
  const [opened, setOpened] = useState(false);
  const blockOf = (id: MenuActionId) => deviceActionBlock(id, device.state, denied);
  const moveBlock = useMoveBlock(
    [{ deviceType: device.deviceType, fleetId: device.target.fleetId }],
    opened && blockOf('move') === null,
  );
  const start = async (request: ActionRequest): Promise<void> => {
    const done = await actions.run(request, [device.target]);
    if (done.length === 0) return;
    if (request.id === 'delete') void navigate(fleetPath, { replace: true });
    if (request.id === 'move') void navigate(`/fleets/${request.input.fleetId}`);
  };
  return (
    <>
      <ActionsMenu
        entries={menuActions.map((id) => ({
          id,
          block: blockOf(id) ?? (id === 'move' ? moveBlock : null),
        }))}
        busy={actions.pending !== null}
        onOpen={() => setOpened(true)}
        onSelect={(id) => {
          if (isFieldAction(id)) setEditing(id);
          else if (isHostUpdateAction(id)) setUpdating(id);
          else if (actionSpecs[id].confirm || queuesOffline(id, device.state)) setConfirming(id);
          else void start({ id });
        }}
      />
      <ActionConfirmDialog
        spec={confirming ? actionSpecs[confirming] : null}
        names={[device.target.name]}
        skipped={[]}
        pending={actions.pending !== null}
        offline={confirming && queuesOffline(confirming, device.state) ? 1 : 0}
        onConfirm={(queueHours) => {
          if (!confirming) return;
          void start(plainRequest(confirming, queueHours)).finally(() => setConfirming(null));
        }}
        onClose={() => setConfirming(null)}
      />
      {editing ? (
        <FieldActionDialog
          action={editing}
          devices={[device]}
          skipped={[]}
          fleetId={device.target.fleetId}
          pending={actions.pending !== null}
          progress={actions.progress}
          onConfirm={(request) => {
            void start(request).finally(() => setEditing(null));
          }}
          onClose={() => setEditing(null)}
        />
      ) : null}
      {updating ? (
        <HostUpdateDialog
          action={updating}
          devices={[device]}
          skipped={[]}
          pending={actions.pending !== null}
          progress={actions.progress}
          onConfirm={(request) => {
            void start(request).finally(() => setUpdating(null));
          }}
          onClose={() => setUpdating(null)}
        />
      ) : null}
    </>
  );
};
