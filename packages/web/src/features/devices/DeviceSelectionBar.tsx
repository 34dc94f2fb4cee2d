import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type {
  FieldActionId,
  HostUpdateActionId,
} from '@flotilla/shared/devices/device-action-permissions';
import LinearProgress from '@mui/material/LinearProgress';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import type { FleetDetail } from '../../fleet/api-fleet-detail.js';
import { ActionConfirmDialog } from './ActionConfirmDialog.js';
import { ActionsMenu } from './ActionsMenu.js';
import { actionDeviceOf, type Denied, planBatch, queuesOffline } from './device-action-rules.js';
import {
  type ActionRequest,
  type ActionTarget,
  actionSpecs,
  type MenuActionId,
  menuActions,
  plainRequest,
} from './device-actions.js';
import { fieldDeviceOfRow } from './field-action-device.js';
import { isFieldAction } from './field-actions.js';
import { FieldActionDialog } from './FieldActionDialog.js';
import { isHostUpdateAction } from './host-update-actions.js';
import { HostUpdateDialog } from './HostUpdateDialog.js';
import { ManageTagsDialog, type TaggedDevice } from './ManageTagsDialog.js';
import { DisabledReason } from '../../ui/DisabledReason.js';
import { plural } from '../../device/device-format.js';
import type { DeviceListRow } from '../../device/device-rows.js';
import type { DeviceActions } from './api-device-actions.js';
import { useMoveBlock } from './api-move.js';

type PlainActionId = Exclude<MenuActionId, FieldActionId | HostUpdateActionId>;

// The selection's batch actions: each runs on the selected devices it is allowed on, 50 at a
// time; the confirmation says which devices are skipped and why. Devices deleted or moved away
// leave the selection; after a move the user lands on the target fleet.
export const DeviceSelectionBar = ({
  application,
  selected,
  denied,
  actions,
  onClear,
  onDeleted,
}: {
  application: FleetDetail;
  selected: readonly DeviceListRow[];
  denied: Denied;
  actions: DeviceActions;
  onClear: () => void;
  onDeleted: (ids: number[]) => void;
}) => {
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState<PlainActionId | null>(null);
  const [editing, setEditing] = useState<FieldActionId | null>(null);
  const [updating, setUpdating] = useState<HostUpdateActionId | null>(null);
  const [tagging, setTagging] = useState<TaggedDevice[] | null>(null);
  const tagBlock = selected.length === 0 ? 'No devices selected' : denied('device_tag', 'create');
  const plans = new Map(
    menuActions.map(
      (id) => [id, planBatch<DeviceListRow>(id, selected, actionDeviceOf, denied)] as const,
    ),
  );
  // The move targets are asked for once the menu opens, and only when some device may move.
  const [opened, setOpened] = useState(false);
  const movePlan = plans.get('move');
  const moveBlock = useMoveBlock(
    (movePlan?.eligible ?? []).map((device) => ({
      deviceType: device.is_of__device_type[0]?.slug ?? '',
      fleetId: application.id,
    })),
    opened && movePlan?.block === null,
  );
  const targetOf = (device: DeviceListRow): ActionTarget => ({
    id: device.id,
    uuid: device.uuid,
    name: device.device_name,
    fleetId: application.id,
  });
  const start = async (request: ActionRequest, targets: ActionTarget[]): Promise<void> => {
    const done = await actions.run(request, targets);
    if (request.id === 'delete' || request.id === 'move') {
      onDeleted(done.map((target) => target.id));
    }
    if (request.id === 'move' && done.length > 0) {
      void navigate(`/fleets/${request.input.fleetId}`);
    }
  };
  const eligibleTargets = (id: MenuActionId): ActionTarget[] =>
    (plans.get(id)?.eligible ?? []).map(targetOf);
  // Eligible devices that would queue the action (offline).
  const offlineCount = (id: MenuActionId): number =>
    (plans.get(id)?.eligible ?? []).filter((device) => queuesOffline(id, actionDeviceOf(device)))
      .length;
  const plan = confirming ? plans.get(confirming) : undefined;
  const editPlan = editing ? plans.get(editing) : undefined;
  const updatePlan = updating ? plans.get(updating) : undefined;
  const skippedOf = (batch: typeof plan) =>
    (batch?.skipped ?? []).map(({ item, reason }) => ({ name: item.device_name, reason }));
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
      <Typography variant="body2" color="text.secondary" aria-live="polite">
        {selected.length === 0
          ? 'No devices selected'
          : `${plural(selected.length, 'device')} selected`}
      </Typography>
      {selected.length > 0 ? (
        <Button size="small" onClick={onClear}>
          Clear
        </Button>
      ) : null}
      <ActionsMenu
        entries={menuActions.map((id) => ({
          id,
          block: plans.get(id)?.block ?? (id === 'move' ? moveBlock : null),
        }))}
        busy={actions.pending !== null}
        onOpen={() => setOpened(true)}
        onSelect={(id) => {
          if (isFieldAction(id)) setEditing(id);
          else if (isHostUpdateAction(id)) setUpdating(id);
          else if (actionSpecs[id].confirm || offlineCount(id) > 0) setConfirming(id);
          else void start({ id }, eligibleTargets(id));
        }}
      />
      <DisabledReason reason={tagBlock}>
        <Button
          variant="outlined"
          disabled={tagBlock !== null}
          onClick={() =>
            setTagging(
              selected.map((device) => ({
                id: device.id,
                name: device.device_name,
                device_tag: device.device_tag,
              })),
            )
          }
        >
          Tags
        </Button>
      </DisabledReason>
      <ManageTagsDialog devices={tagging} onClose={() => setTagging(null)} />
      <ActionConfirmDialog
        spec={confirming ? actionSpecs[confirming] : null}
        names={(plan?.eligible ?? []).map((device) => device.device_name)}
        skipped={skippedOf(plan)}
        pending={actions.pending !== null}
        offline={confirming ? offlineCount(confirming) : 0}
        onConfirm={(queueHours) => {
          if (!confirming) return;
          void start(plainRequest(confirming, queueHours), eligibleTargets(confirming)).finally(
            () => setConfirming(null),
          );
        }}
        onClose={() => setConfirming(null)}
      />
      {editing ? (
        <FieldActionDialog
          action={editing}
          devices={(editPlan?.eligible ?? []).map(fieldDeviceOfRow)}
          skipped={skippedOf(editPlan)}
          fleetId={application.id}
          pending={actions.pending !== null}
          progress={actions.progress}
          onConfirm={(request, devices) => {
            void start(
              request,
              devices.map((device) => device.target),
            ).finally(() => setEditing(null));
          }}
          onClose={() => setEditing(null)}
        />
      ) : null}
      {updating ? (
        <HostUpdateDialog
          action={updating}
          devices={(updatePlan?.eligible ?? []).map(fieldDeviceOfRow)}
          skipped={skippedOf(updatePlan)}
          pending={actions.pending !== null}
          progress={actions.progress}
          onConfirm={(request, devices) => {
            void start(
              request,
              devices.map((device) => device.target),
            ).finally(() => setUpdating(null));
          }}
          onClose={() => setUpdating(null)}
        />
      ) : null}
      {actions.progress && actions.progress.total > 1 ? (
        <LinearProgress
          variant="determinate"
          aria-label="Batch progress"
          value={(100 * actions.progress.done) / actions.progress.total}
          sx={{ width: 120 }}
        />
      ) : null}
    </Stack>
  );
};
