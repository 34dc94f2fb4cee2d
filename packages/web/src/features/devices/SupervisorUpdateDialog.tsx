import Alert from '@mui/material/Alert';
import Typography from '@mui/material/Typography';
import { supervisorUpdateMessages } from '@flotilla/shared/host-os/supervisor-update';
import { useState } from 'react';
import { plural } from '../../device/device-format.js';
import { LoadState } from '../../ui/LoadState.js';
import { useSupervisorCatalogue } from './api-host-os.js';
import {
  supervisorChoiceBlock,
  supervisorMessages,
  supervisorRows,
  supervisorVersionOptions,
} from './host-update-plan.js';
import { EligibilityTable, VersionSelect } from './HostUpdateParts.js';
import { type HostUpdateDialogProps, useHostUpdateQueue } from './OsUpdateDialog.js';
import { HostUpdateFrame } from './HostUpdateFrame.js';

// Update supervisor, for one device or a selection: newer supervisor releases of the devices'
// CPU architectures. Devices already at or above the version are skipped; one that cannot take
// it (an ESR device, another architecture) blocks the update until it is deselected.
export const SupervisorUpdateDialog = ({
  devices,
  skipped,
  pending,
  progress,
  onConfirm,
  onClose,
}: HostUpdateDialogProps) => {
  const catalogue = useSupervisorCatalogue(devices.map((device) => device.deviceType));
  const queue = useHostUpdateQueue(devices);
  const [picked, setPicked] = useState<string | null>(null);
  const [only] = devices;
  const single = devices.length === 1 && only !== undefined;
  const versions = catalogue.data ? supervisorVersionOptions(devices, catalogue.data) : [];
  const version = picked ?? versions[0] ?? null;
  const rows =
    catalogue.data && version !== null
      ? supervisorRows(devices, version, catalogue.data, queue.queueOffline)
      : [];
  const updating = rows.filter((row) => row.outcome === 'update');
  const blocked = rows.find((row) => row.outcome === 'blocked');
  // Why the form cannot run: nothing to offer, or a device that cannot take the version.
  let block: string | null = null;
  if (catalogue.isSuccess && version === null) {
    block =
      (single ? supervisorChoiceBlock(only, catalogue.data) : null) ??
      supervisorUpdateMessages.noVersions;
  } else if (blocked) {
    block = single ? blocked.message : supervisorMessages.notAll;
  } else if (version !== null && updating.length === 0) {
    // Up to date, or offline with the queue turned down.
    block = rows.find((row) => row.outcome === 'skip')?.message ?? supervisorMessages.upToDate;
  }
  return (
    <HostUpdateFrame
      action="supervisor-update"
      deviceCount={devices.length}
      skipped={skipped}
      pending={pending}
      progress={progress}
      confirmDisabled={block !== null || version === null}
      onConfirm={() => {
        if (block !== null || version === null) return;
        const updated = updating.map((row) => row.device);
        const queued = queue.requestQueue(updated);
        onConfirm(
          {
            id: 'supervisor-update',
            input: {
              version,
              releases: Object.fromEntries(
                updating.map((row) => [row.device.target.id, row.releaseId ?? 0]),
              ),
              ...(queued ? { queue: queued } : {}),
            },
          },
          updated,
        );
      }}
      onClose={onClose}
    >
      {single ? (
        <Typography variant="body2">
          {only.target.name} runs supervisor {only.supervisorVersion ?? 'of an unknown version'}.
        </Typography>
      ) : null}
      <LoadState queries={[catalogue]} what="supervisor versions" />
      {versions.length > 0 && version !== null ? (
        <VersionSelect
          label="Supervisor version"
          value={version}
          onChange={setPicked}
          options={versions.map((option) => ({
            key: option,
            label: option,
            disabledReason: null,
          }))}
        />
      ) : null}
      {queue.choice}
      {block !== null ? <Alert severity="warning">{block}</Alert> : null}
      {!single && rows.length > 0 ? (
        <>
          <Typography variant="body2">
            {plural(updating.length, 'device')} of {devices.length} will be updated.
          </Typography>
          <EligibilityTable
            currentLabel="Current supervisor"
            rows={rows.map((row) => ({
              id: row.device.target.id,
              name: row.device.target.name,
              current: row.device.supervisorVersion ?? '—',
              updates: row.outcome === 'update',
              queued: !row.device.isOnline,
              message: row.message,
            }))}
          />
        </>
      ) : null}
    </HostUpdateFrame>
  );
};
