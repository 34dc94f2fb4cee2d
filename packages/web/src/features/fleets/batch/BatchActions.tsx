import type { ApplicationClass } from '@flotilla/shared/fleets/fleet-name';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { ConfirmDialog } from '../../../ui/ConfirmDialog.js';
import type { FleetListItem } from '../../../fleet/api-fleet-list.js';
import { classLabels } from '../../../fleet/class-names.js';
import { BatchDeviceTypeDialog } from './BatchDeviceTypeDialog.js';
import { BatchRenameDialog } from './BatchRenameDialog.js';
import type { FleetBatchAction } from '@flotilla/shared/fleets/fleet-action-permissions';
import { batchGates } from './batch-rules.js';
import { BatchToolbar } from './BatchToolbar.js';
import { useBatchFleets, useBatchRun, useBatchWrites } from './api-batch.js';
import type { Selection } from './useSelection.js';

const plural = (count: number, one: string, many: string): string =>
  `${count} ${count === 1 ? one : many}`;

// Selection-mode toolbar of a fleet list and the dialogs of its batch actions: rename one fleet,
// delete several, or change the default device type of several together.
export const BatchActions = ({
  className,
  fleets: listed,
  selection,
}: {
  className: ApplicationClass;
  fleets: readonly FleetListItem[];
  selection: Selection;
}) => {
  const writes = useBatchWrites();
  const labels = classLabels[className];
  const one = labels.one.toLowerCase();
  const many = labels.many.toLowerCase();
  const batch = useBatchFleets(selection.selected);
  const [open, setOpen] = useState<FleetBatchAction | null>(null);
  const run = useBatchRun(() => {
    setOpen(null);
    selection.clear();
  });
  const gates = batchGates(batch.fleets, selection.selected.length, {
    pending: batch.isPending,
    error: batch.error,
  });
  const fleets = batch.fleets ?? [];
  // Names and device counts come from the list rows, which are already loaded.
  const chosen = listed.filter((fleet) => selection.isSelected(fleet.id));
  const devices = chosen.reduce((sum, fleet) => sum + fleet.owns__device, 0);
  const [single] = fleets;
  const close = (): void => {
    if (!run.isPending) setOpen(null);
  };
  const deleteConfirmText = single && fleets.length === 1 ? single.name : String(fleets.length);
  return (
    <>
      <BatchToolbar
        label={many}
        total={listed.length}
        selectedCount={selection.selected.length}
        gates={gates}
        onSelectAll={selection.selectAll}
        onClear={selection.clear}
        onAction={setOpen}
        onDone={selection.stop}
      />
      {open === 'rename' && single ? (
        <BatchRenameDialog
          fleet={single}
          pending={run.isPending}
          onClose={close}
          onRename={(name) =>
            run.mutate({
              fleets: [single],
              run: writes.rename(name),
              texts: {
                done: `Renamed ${single.name} to ${name}`,
                failed: `Could not rename ${single.name}`,
                items: many,
              },
            })
          }
        />
      ) : null}
      {open === 'deviceType' ? (
        <BatchDeviceTypeDialog
          fleets={fleets}
          className={className}
          pending={run.isPending}
          onClose={close}
          onChange={(deviceType) =>
            run.mutate({
              fleets,
              run: writes.setDeviceType(deviceType.id),
              texts: {
                done: `Default device type of ${plural(fleets.length, one, many)} changed to ${deviceType.name}`,
                failed: 'Could not change the default device type',
                items: many,
              },
            })
          }
        />
      ) : null}
      <ConfirmDialog
        open={open === 'delete'}
        title={
          single && fleets.length === 1
            ? `Delete ${one} ${single.name}?`
            : `Delete ${plural(fleets.length, one, many)}?`
        }
        items={chosen.map((fleet) => fleet.app_name)}
        confirmText={deleteConfirmText}
        confirmLabel={`Delete ${fleets.length === 1 ? one : many}`}
        destructive
        pending={run.isPending}
        onClose={close}
        onConfirm={() =>
          run.mutate({
            fleets,
            run: writes.remove,
            texts: {
              done: `Deleted ${plural(fleets.length, one, many)}`,
              failed: `Could not delete the selected ${many}`,
              items: many,
            },
          })
        }
      >
        <Typography>
          {devices > 0
            ? `This also deletes ${fleets.length === 1 ? 'its' : 'their'} ${plural(devices, 'device', 'devices')} and cannot be undone.`
            : 'This cannot be undone.'}
        </Typography>
      </ConfirmDialog>
    </>
  );
};
