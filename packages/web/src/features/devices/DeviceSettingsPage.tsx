import { deviceActionPermissions } from '@flotilla/shared/devices/device-action-permissions';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import { Link as RouterLink } from 'react-router';
import { releaseLabel, supportAccessText } from '../../device/device-format.js';
import type { DeviceDetail } from '../../device/device-rows.js';
import { DeviceSection } from '../../device/DeviceSection.js';
import { classLabels } from '../../fleet/class-names.js';
import { SlugText } from '../../ui/SlugText.js';
import { useDeviceActions } from './api-device-actions.js';
import { isLocalMode } from './device-action-rules.js';
import { DeviceActionRow } from './DeviceActionRow.js';
import { DeviceNotes } from './DeviceNotes.js';
import { LockNotice } from './LockNotice.js';
import { useDeviceDetailFlow } from './useDeviceActionFlow.js';

const onOff = (on: boolean): string => (on ? 'On' : 'Off');

const DeviceSettings = ({ detail }: { detail: DeviceDetail }) => {
  const actions = useDeviceActions();
  const { flow, access } = useDeviceDetailFlow(detail, actions, true);
  const busy = actions.pending !== null;
  const fleet = detail.belongs_to__application[0];
  const pinned = detail.is_pinned_on__release[0];
  const notes = deviceActionPermissions.notes;
  return (
    <Stack spacing={2}>
      <LockNotice actions={actions} />
      <Paper
        variant="outlined"
        component="section"
        aria-label="Device settings"
        sx={{ px: 3, py: 1 }}
      >
        <DeviceActionRow
          id="move"
          flow={flow}
          busy={busy}
          title="Fleet"
          buttonLabel="Move"
          description={
            fleet ? (
              <Link
                component={RouterLink}
                to={`${classLabels[fleet.is_of__class].path}/${fleet.id}`}
              >
                <SlugText slug={fleet.slug} />
              </Link>
            ) : (
              '—'
            )
          }
        />
        <DeviceActionRow
          id="pin"
          flow={flow}
          busy={busy}
          title="Release"
          buttonLabel="Change"
          description={pinned ? `Pinned to ${releaseLabel(pinned)}` : "Tracks the fleet's release"}
        />
        <DeviceActionRow
          id="public-url"
          flow={flow}
          busy={busy}
          buttonLabel="Change"
          description={onOff(detail.is_web_accessible)}
        />
        <DeviceActionRow
          id="local-mode"
          flow={flow}
          busy={busy}
          buttonLabel="Change"
          description={onOff(isLocalMode(detail.device_config_variable))}
        />
        <DeviceActionRow
          id="support-access"
          flow={flow}
          busy={busy}
          buttonLabel="Change"
          description={supportAccessText(detail.is_accessible_by_support_until__date)}
        />
      </Paper>
      <DeviceNotes
        key={detail.id}
        deviceId={detail.id}
        uuid={detail.uuid}
        note={detail.note}
        denied={access.denied(notes.resource, notes.action)}
      />
      {flow.dialogs}
    </Stack>
  );
};

// /devices/:uuid/settings: the device's own settings with their current values (fleet, release,
// public URL, local mode, support access, notes), each changed through the same form
// as in the Actions menu. Its variables and configuration have their own tabs.
export const DeviceSettingsPage = () => (
  <DeviceSection title="Settings">{(device) => <DeviceSettings detail={device} />}</DeviceSection>
);
