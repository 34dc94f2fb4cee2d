import {
  type FieldActionId,
  type HostUpdateActionId,
  type SupervisorActionId,
  supervisorActionOf,
} from '@flotilla/shared/devices/device-action-permissions';
import { type ReactNode, useState } from 'react';
import { useNavigate } from 'react-router';
import { ActionConfirmDialog } from './ActionConfirmDialog.js';
import type { DeviceActions } from './api-device-actions.js';
import { useMoveBlock } from './api-move.js';
import { type Denied, deviceActionBlock, queuesOffline } from './device-action-rules.js';
import {
  type ActionRequest,
  actionSpecs,
  type MenuActionId,
  menuActions,
  plainRequest,
} from './device-actions.js';
import { type FieldActionDevice, fieldDeviceOfDetail } from './field-action-device.js';
import type { DeviceDetail } from '../../device/device-rows.js';
import { type FleetRoleState, useFleetRole } from '../../fleet/api-fleet-role.js';
import { classLabels } from '../../fleet/class-names.js';
import { isFieldAction } from './field-actions.js';
import { FieldActionDialog } from './FieldActionDialog.js';
import { isHostUpdateAction } from './host-update-actions.js';
import { HostUpdateDialog } from './HostUpdateDialog.js';

// Actions that need at most a confirmation: those sent to the supervisor, and delete.
type PlainActionId = SupervisorActionId | 'delete';

const isPlainAction = (id: string): id is PlainActionId =>
  id === 'delete' || Object.hasOwn(supervisorActionOf, id);

// The Actions menu's entries this flow runs: the field actions' forms, the OS and supervisor
// update dialogs, and the confirmations.
export const flowActions: readonly MenuActionId[] = menuActions.filter(
  (id) => isFieldAction(id) || isHostUpdateAction(id) || isPlainAction(id),
);

export type DeviceActionFlow = {
  // Why the action cannot run on the device now, or null.
  blockOf: (id: MenuActionId) => string | null;
  // Opens the action's form or confirmation, or runs it at once when it needs neither.
  select: (id: MenuActionId) => void;
  // The dialogs the flow opens; render them once beside the controls.
  dialogs: ReactNode;
};

// One device's actions outside the Actions menu (the actions page, the summary's move button):
// the same rules, forms and confirmations. After a delete the user lands on the device's fleet,
// after a move on the fleet the device moved to.
export const useDeviceActionFlow = ({
  device,
  denied,
  actions,
  fleetPath,
  askMoveTargets,
}: {
  device: FieldActionDevice;
  denied: Denied;
  actions: DeviceActions;
  fleetPath: string;
  // Whether to ask now which fleets the device could move to (only when a move is offered).
  askMoveTargets: boolean;
}): DeviceActionFlow => {
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState<PlainActionId | null>(null);
  const [editing, setEditing] = useState<FieldActionId | null>(null);
  const [updating, setUpdating] = useState<HostUpdateActionId | null>(null);
  const ruleBlock = (id: MenuActionId) => deviceActionBlock(id, device.state, denied);
  const moveBlock = useMoveBlock(
    [{ deviceType: device.deviceType, fleetId: device.target.fleetId }],
    askMoveTargets && ruleBlock('move') === null,
  );
  const start = async (request: ActionRequest): Promise<void> => {
    const done = await actions.run(request, [device.target]);
    if (done.length === 0) return;
    if (request.id === 'delete') void navigate(fleetPath, { replace: true });
    if (request.id === 'move') void navigate(`/fleets/${request.input.fleetId}`);
  };
  const pending = actions.pending !== null;
  return {
    blockOf: (id) => ruleBlock(id) ?? (id === 'move' ? moveBlock : null),
    select: (id) => {
      if (isFieldAction(id)) setEditing(id);
      else if (isHostUpdateAction(id)) setUpdating(id);
      else if (isPlainAction(id)) {
        if (actionSpecs[id].confirm || queuesOffline(id, device.state)) setConfirming(id);
        else void start({ id });
      }
    },
    dialogs: (
      <>
        <ActionConfirmDialog
          spec={confirming ? actionSpecs[confirming] : null}
          names={[device.target.name]}
          skipped={[]}
          pending={pending}
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
            pending={pending}
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
            pending={pending}
            progress={actions.progress}
            onConfirm={(request) => {
              void start(request).finally(() => setUpdating(null));
            }}
            onClose={() => setUpdating(null)}
          />
        ) : null}
      </>
    ),
  };
};

// The flow for the device of a device page, with the user's permissions on its fleet.
export const useDeviceDetailFlow = (
  detail: DeviceDetail,
  actions: DeviceActions,
  askMoveTargets: boolean,
): { flow: DeviceActionFlow; access: FleetRoleState } => {
  const fleet = detail.belongs_to__application[0];
  const fleetId = fleet?.id ?? 0;
  const access = useFleetRole(fleetId);
  const flow = useDeviceActionFlow({
    device: fieldDeviceOfDetail(detail, {
      id: detail.id,
      uuid: detail.uuid,
      name: detail.device_name,
      fleetId,
    }),
    denied: access.denied,
    actions,
    fleetPath: fleet ? `${classLabels[fleet.is_of__class].path}/${fleet.id}` : '/fleets',
    askMoveTargets,
  });
  return { flow, access };
};
