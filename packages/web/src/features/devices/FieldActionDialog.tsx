import type { FieldActionId } from '@flotilla/shared/devices/device-action-permissions';
import Alert from '@mui/material/Alert';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { type ReactNode, useState } from 'react';
import { supportAccessDefaultDays } from '../../fleet/fleet-limits.js';
import { ConfirmDialog } from '../../ui/ConfirmDialog.js';
import { localInputValue } from '../../fleet/support-access.js';
import { plural } from '../../device/device-format.js';
import type { FieldActionDevice } from './field-action-device.js';
import { fieldActionSpecs, type FieldRequest } from './field-actions.js';
import {
  LocalModeEligibility,
  OnOffChoice,
  PublicUrlState,
  SupportAccessForm,
} from './FieldActionForms.js';
import { type ReleaseChoice, ReleasePicker, trackChoice } from '../releases/ReleasePicker.js';
import { MoveFleetPicker } from './MoveFleetPicker.js';
import { SkippedNotice } from './SkippedNotice.js';
import { useSupportAccessCheck } from './support-access-check.js';

const dayMs = 24 * 60 * 60 * 1000;

type Props = {
  action: FieldActionId;
  // The devices the action may run on (the plan's eligible ones) and those left out, with why.
  devices: readonly FieldActionDevice[];
  skipped: readonly { name: string; reason: string }[];
  // The fleet of the devices (the releases a device can be pinned to).
  fleetId: number;
  pending: boolean;
  progress: { done: number; total: number } | null;
  onConfirm: (request: FieldRequest, devices: FieldActionDevice[]) => void;
  onClose: () => void;
};

// One form per field action; its state starts afresh each time the dialog opens (the dialog
// unmounts it when closed).
export const FieldActionDialog = ({
  action,
  devices,
  skipped,
  fleetId,
  pending,
  progress,
  onConfirm,
  onClose,
}: Props) => {
  const spec = fieldActionSpecs[action];
  const [only] = devices;
  const single = devices.length === 1 && only !== undefined;
  const [now] = useState(() => Date.now());
  const [release, setRelease] = useState<ReleaseChoice | null>(null);
  const [enabled, setEnabled] = useState(() =>
    single && action === 'public-url' ? !only.isWebAccessible : true,
  );
  const [grant, setGrant] = useState(true);
  const [until, setUntil] = useState(() =>
    localInputValue(new Date(now + supportAccessDefaultDays * dayMs)),
  );
  const [fleet, setFleet] = useState<number | null>(null);
  const untilCheck = useSupportAccessCheck(until);

  // What would run, or null while the form is incomplete.
  let request: FieldRequest | null = null;
  let runOn: FieldActionDevice[] = [...devices];
  let form: ReactNode = null;
  switch (action) {
    case 'pin':
      if (release !== null) {
        request = { id: 'pin', input: { releaseId: release === trackChoice ? null : release } };
      }
      form = (
        <ReleasePicker
          fleetId={fleetId}
          label="Release"
          track={{
            label: 'Track the fleet release',
            detail: 'The device runs the release its fleet runs',
            inputLabel: 'Track the fleet release',
          }}
          value={release}
          onChange={setRelease}
        />
      );
      break;
    case 'public-url':
      request = { id: 'public-url', input: { enabled } };
      form = (
        <>
          {single ? <PublicUrlState device={only} /> : null}
          <OnOffChoice
            value={enabled}
            onChange={setEnabled}
            labels={['Enable the public device URL', 'Disable the public device URL']}
          />
        </>
      );
      break;
    case 'local-mode':
      if (enabled) runOn = devices.filter((device) => device.state.localModeBlock === null);
      if (runOn.length > 0) request = { id: 'local-mode', input: { enabled } };
      form = (
        <>
          {single ? (
            <Typography variant="body2">
              Local mode is {only.state.isInLocalMode ? 'on' : 'off'}.
            </Typography>
          ) : null}
          <OnOffChoice
            value={enabled}
            onChange={setEnabled}
            labels={['Enable local mode', 'Disable local mode']}
          />
          <LocalModeEligibility devices={devices} enabling={enabled} />
        </>
      );
      break;
    case 'support-access': {
      if (!grant) request = { id: 'support-access', input: { until: null } };
      else if (!untilCheck.checking && untilCheck.error === null) {
        request = { id: 'support-access', input: { until: new Date(until).toISOString() } };
      }
      form = (
        <SupportAccessForm
          devices={devices}
          grant={grant}
          onGrant={setGrant}
          until={until}
          onUntil={setUntil}
          error={untilCheck.error}
          now={now}
          min={localInputValue(new Date(now))}
        />
      );
      break;
    }
    case 'move':
      if (fleet !== null) request = { id: 'move', input: { fleetId: fleet } };
      form = <MoveFleetPicker devices={devices} value={fleet} onChange={setFleet} />;
      break;
    case 'deactivate':
      request = { id: 'deactivate', input: {} };
      form = (
        <Alert severity="warning">
          The device stays listed in its fleet as inactive and receives nothing until it is
          activated again.
        </Alert>
      );
      break;
  }
  const names = devices.map((device) => device.target.name);
  return (
    <ConfirmDialog
      open
      title={`${spec.title}${single ? '' : ` (${plural(devices.length, 'device')})`}`}
      items={names}
      confirmText={
        action === 'deactivate' ? (single ? only.target.name : String(devices.length)) : undefined
      }
      confirmLabel={progress ? `${progress.done} of ${progress.total}…` : spec.confirmLabel}
      destructive={spec.destructive}
      confirmDisabled={request === null}
      pending={pending}
      onConfirm={() => {
        if (request) onConfirm(request, runOn);
      }}
      onClose={onClose}
    >
      <Typography>
        {spec.blurb}{' '}
        {spec.docs ? (
          <Link href={spec.docs} target="_blank" rel="noreferrer">
            Documentation
          </Link>
        ) : null}
      </Typography>
      {form}
      <SkippedNotice skipped={skipped} />
    </ConfirmDialog>
  );
};
