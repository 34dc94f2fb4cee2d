import Alert from '@mui/material/Alert';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import Typography from '@mui/material/Typography';
import { defaultQueueExpiryHours } from '@flotilla/shared/devices/queued-actions';
import { osUpdateMessages } from '@flotilla/shared/host-os/os-update-eligibility';
import { parseOsVersion } from '@flotilla/shared/host-os/os-version';
import { useState } from 'react';
import { plural } from '../../device/device-format.js';
import { LoadState } from '../../ui/LoadState.js';
import { useOsReleases } from './api-host-os.js';
import type { FieldActionDevice } from './field-action-device.js';
import type { HostUpdateRequest } from './host-update-actions.js';
import { osUpdateRows, osVersionOptions } from './host-update-plan.js';
import { EligibilityTable, VersionSelect } from './HostUpdateParts.js';
import { OsLineChips } from './OsLineChip.js';
import { HostUpdateFrame } from './HostUpdateFrame.js';
import { QueueChoice, type QueueState } from './QueueChoice.js';

export type HostUpdateDialogProps = {
  // The devices the user may update, and those left out with why (permissions).
  devices: readonly FieldActionDevice[];
  skipped: readonly { name: string; reason: string }[];
  pending: boolean;
  progress: { done: number; total: number } | null;
  onConfirm: (request: HostUpdateRequest, devices: FieldActionDevice[]) => void;
  onClose: () => void;
};

// Update OS, for one device or a selection: a version of the devices' line and variant, each
// device's eligibility for it; only the eligible devices are updated. Offline devices take the
// update when they come back online, if the user queues it (the default, as for other actions).

// The queue choice of an update dialog, and the queue the request carries for the offline
// devices among those updated.
export const useHostUpdateQueue = (devices: readonly FieldActionDevice[]) => {
  const [queue, setQueue] = useState<QueueState>({
    queue: true,
    hours: defaultQueueExpiryHours,
  });
  const offline = devices.filter((device) => !device.isOnline).length;
  return {
    queueOffline: queue.queue,
    choice:
      offline > 0 ? <QueueChoice offline={offline} value={queue} onChange={setQueue} /> : null,
    requestQueue: (updated: readonly FieldActionDevice[]) => {
      const deviceIds = updated
        .filter((device) => !device.isOnline)
        .map((device) => device.target.id);
      return queue.queue && deviceIds.length > 0 ? { hours: queue.hours, deviceIds } : undefined;
    },
  };
};
export const OsUpdateDialog = ({
  devices,
  skipped,
  pending,
  progress,
  onConfirm,
  onClose,
}: HostUpdateDialogProps) => {
  const releases = useOsReleases(devices.map((device) => device.deviceType));
  const queue = useHostUpdateQueue(devices);
  const [picked, setPicked] = useState<string | null>(null);
  const [takeoverAccepted, setTakeoverAccepted] = useState(false);
  const [only] = devices;
  const single = devices.length === 1 && only !== undefined;
  const options = osVersionOptions(devices, releases.data ?? []);
  const firstEnabled = options.find((option) => option.disabledReason === null);
  const chosen = options.find((option) => option.key === (picked ?? firstEnabled?.key));
  const rows = chosen
    ? osUpdateRows(
        devices,
        { version: chosen.version, variant: chosen.variant },
        releases.data ?? [],
        queue.queueOffline,
      )
    : [];
  const updating = rows.filter((row) => row.eligibility.willUpdate && row.releaseId !== null);
  const takeover = updating.some((row) => row.eligibility.takeover);
  const knownIssues = chosen
    ? (releases.data ?? []).find(
        (release) => release.rawVersion === chosen.version && release.knownIssues,
      )?.knownIssues
    : null;
  const ready = updating.length > 0 && (!takeover || takeoverAccepted);
  const onlyRow = rows[0];
  return (
    <HostUpdateFrame
      action="os-update"
      deviceCount={devices.length}
      skipped={skipped}
      pending={pending}
      progress={progress}
      confirmDisabled={!ready}
      onConfirm={() => {
        if (!chosen || !ready) return;
        const updated = updating.map((row) => row.device);
        const queued = queue.requestQueue(updated);
        onConfirm(
          {
            id: 'os-update',
            input: {
              version: chosen.version,
              variant: chosen.variant,
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
          {only.target.name} runs {only.osVersion ?? 'an unknown OS version'}.
        </Typography>
      ) : null}
      <LoadState queries={[releases]} what="OS versions" />
      {releases.isSuccess && options.length === 0 ? (
        <Alert severity="info">
          {single && parseOsVersion(only.osVersion) === null
            ? 'Could not parse OS version'
            : 'No newer OS version is available for the selected devices'}
        </Alert>
      ) : null}
      {options.length > 0 ? (
        <VersionSelect
          label="OS version"
          value={chosen?.key ?? ''}
          onChange={(key) => {
            setPicked(key);
            setTakeoverAccepted(false);
          }}
          options={options.map((option) => ({
            key: option.key,
            label: option.variant ? `${option.version} (${option.variant})` : option.version,
            adornment: <OsLineChips version={option.version} phase={option.phase} />,
            disabledReason: option.disabledReason,
          }))}
        />
      ) : null}
      {queue.choice}
      {knownIssues ? <Alert severity="warning">Known issues: {knownIssues}</Alert> : null}
      {single && onlyRow?.eligibility.message && !onlyRow.eligibility.takeover ? (
        <Alert severity={onlyRow.eligibility.willUpdate ? 'info' : 'warning'}>
          {onlyRow.eligibility.message}
        </Alert>
      ) : null}
      {!single && rows.length > 0 ? (
        <>
          <Typography variant="body2">
            {plural(updating.length, 'device')} of {devices.length} will be updated.
          </Typography>
          <EligibilityTable
            currentLabel="Current OS"
            rows={rows.map((row) => ({
              id: row.device.target.id,
              name: row.device.target.name,
              current: row.device.osVersion ?? '—',
              updates: row.eligibility.willUpdate && row.releaseId !== null,
              queued: !row.device.isOnline,
              message: row.eligibility.message,
            }))}
          />
        </>
      ) : null}
      {takeover ? (
        <>
          <Alert severity="warning">{osUpdateMessages.takeover}</Alert>
          <FormControlLabel
            control={
              <Checkbox
                checked={takeoverAccepted}
                onChange={(event) => setTakeoverAccepted(event.target.checked)}
              />
            }
            label="I understand: run the takeover update"
          />
        </>
      ) : null}
    </HostUpdateFrame>
  );
};
