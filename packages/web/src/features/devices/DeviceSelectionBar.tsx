import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import type { ApplicationDetail } from '../fleets/application/application-detail.js';
import { ActionConfirmDialog } from './ActionConfirmDialog.js';
import { ActionsMenu } from './ActionsMenu.js';
import { actionDeviceOf, type Denied, planBatch } from './device-action-rules.js';
import {
  type ActionTarget,
  actionSpecs,
  type MenuActionId,
  menuActions,
} from './device-actions.js';
import { plural } from './device-format.js';
import type { DeviceListRow } from './device-rows.js';
import type { DeviceActions } from './useDeviceActions.js';

// The selection's batch actions: each runs on the selected devices it is allowed on, 50 at a
// time; the confirmation says which devices are skipped and why.
export const DeviceSelectionBar = ({
  application,
  selected,
  denied,
  actions,
  onClear,
  onDeleted,
}: {
  application: ApplicationDetail;
  selected: readonly DeviceListRow[];
  denied: Denied;
  actions: DeviceActions;
  onClear: () => void;
  onDeleted: (ids: number[]) => void;
}) => {
  const [confirming, setConfirming] = useState<MenuActionId | null>(null);
  const plans = new Map(
    menuActions.map(
      (id) => [id, planBatch<DeviceListRow>(id, selected, actionDeviceOf, denied)] as const,
    ),
  );
  const targetOf = (device: DeviceListRow): ActionTarget => ({
    id: device.id,
    uuid: device.uuid,
    name: device.device_name,
    applicationId: application.id,
  });
  const start = async (id: MenuActionId): Promise<void> => {
    const eligible = plans.get(id)?.eligible ?? [];
    const done = await actions.run(id, eligible.map(targetOf));
    if (id === 'delete') onDeleted(done.map((target) => target.id));
  };
  const plan = confirming ? plans.get(confirming) : undefined;
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
        entries={menuActions.map((id) => ({ id, block: plans.get(id)?.block ?? null }))}
        busy={actions.pending !== null}
        onSelect={(id) => {
          if (actionSpecs[id].confirm) setConfirming(id);
          else void start(id);
        }}
      />
      <ActionConfirmDialog
        spec={confirming ? actionSpecs[confirming] : null}
        names={(plan?.eligible ?? []).map((device) => device.device_name)}
        skipped={(plan?.skipped ?? []).map(({ item, reason }) => ({
          name: item.device_name,
          reason,
        }))}
        pending={actions.pending !== null}
        onConfirm={() => {
          if (!confirming) return;
          void start(confirming).finally(() => setConfirming(null));
        }}
        onClose={() => setConfirming(null)}
      />
    </Stack>
  );
};
