import { publicDeviceUrl } from './device-url.js';
import PushPinIcon from '@mui/icons-material/PushPin';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { useConsoleConfig } from './api.js';
import { classLabels } from '../../fleet/class-names.js';
import { SlugText } from '../../ui/SlugText.js';
import { isLocalMode } from './device-action-rules.js';
import {
  absoluteTime,
  addressList,
  durationSince,
  heartbeatColors,
  heartbeatLabels,
  relativeTime,
  releaseLabel,
  supportAccessText,
} from '../../device/device-format.js';
import type { DeviceDetail, ReleaseRef } from '../../device/device-rows.js';
import { releaseBlockerOf } from '../../device/release-blocker.js';
import { CopyableText } from '../../ui/CopyableText.js';
import { DeviceStatusChip } from './DeviceStatusChip.js';
import { HostOsVersion, SupervisorVersion } from './HostOsVersion.js';
import { TagChips } from './TagChips.js';

// A release of the device's fleet, linked to its release page.
const ReleaseLink = ({
  fleet,
  release,
}: {
  fleet: { id: number; is_of__class: keyof typeof classLabels } | undefined;
  release: ReleaseRef | undefined;
}) =>
  fleet && release ? (
    <Link
      component={RouterLink}
      to={`${classLabels[fleet.is_of__class].path}/${fleet.id}/releases/${release.id}`}
      sx={{ fontFamily: 'monospace' }}
    >
      {releaseLabel(release)}
    </Link>
  ) : (
    <Typography sx={{ fontFamily: 'monospace' }}>{releaseLabel(release)}</Typography>
  );

const Field = ({ label, children }: { label: string; children: ReactNode }) => (
  <Box sx={{ minWidth: 0 }}>
    <Typography variant="overline" color="text.secondary" component="dt" sx={{ lineHeight: 1.6 }}>
      {label}
    </Typography>
    <Box component="dd" sx={{ m: 0, minWidth: 0, overflowWrap: 'anywhere' }}>
      {children}
    </Box>
  </Box>
);

// A date as "3 minutes ago", the exact time in a tooltip.
const When = ({ iso, fallback = '—' }: { iso: string | null; fallback?: string }) =>
  iso === null ? (
    <>{fallback}</>
  ) : (
    <Tooltip title={absoluteTime(iso)}>
      <span>{relativeTime(iso)}</span>
    </Tooltip>
  );

// An online device says since when it has been connected, not when it was "last" connected.
const ConnectedSince = ({ iso }: { iso: string | null }) =>
  iso === null ? (
    <>Online</>
  ) : (
    <>
      {absoluteTime(iso)}
      <Typography variant="caption" color="text.secondary" component="div">
        Online for {durationSince(iso)}
      </Typography>
    </>
  );

const Lines = ({ values }: { values: string[] }) =>
  values.length === 0 ? (
    <>—</>
  ) : (
    <Box sx={{ fontFamily: 'monospace', fontSize: '0.875rem' }}>
      {values.map((value) => (
        <div key={value}>{value}</div>
      ))}
    </Box>
  );

const locationText = (device: DeviceDetail): string => {
  const latitude = device.custom_latitude ?? device.latitude;
  const longitude = device.custom_longitude ?? device.longitude;
  if (latitude && longitude) {
    const place = device.location ? `${device.location} ` : '';
    return `${place}(${latitude}, ${longitude})`;
  }
  return device.location ?? 'Device location not determined';
};

const updateStatusText = (device: DeviceDetail): ReactNode =>
  device.update_status === null ? (
    'None'
  ) : (
    <>
      <span style={{ textTransform: 'capitalize' }}>{device.update_status}</span>
      {device.last_update_status_event ? (
        <>
          {' '}
          (<When iso={device.last_update_status_event} />)
        </>
      ) : null}
    </>
  );

// Every field of the device summary card that the device data carries; `fleetAction` sits
// beside the fleet (the move button).
export const DeviceSummaryCard = ({
  device,
  fleetAction,
}: {
  device: DeviceDetail;
  fleetAction?: ReactNode;
}) => {
  const config = useConsoleConfig(device.is_web_accessible);
  const fleet = device.belongs_to__application[0];
  const pinned = device.is_pinned_on__release[0];
  const target = device.should_be_running__release[0];
  const publicUrl = config.data?.deviceUrlsBase
    ? publicDeviceUrl(device.uuid, config.data.deviceUrlsBase)
    : null;
  return (
    <Card component="section" aria-label="Device summary">
      <CardContent>
        <Box
          component="dl"
          sx={{
            m: 0,
            display: 'grid',
            gap: 2,
            gridTemplateColumns: 'repeat(auto-fill, minmax(200px, 1fr))',
          }}
        >
          <Field label="Status">
            <DeviceStatusChip
              status={device.overall_status}
              progress={device.overall_progress}
              blocker={releaseBlockerOf(device)}
            />
          </Field>
          <Field label="Fleet">
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
              {fleet ? (
                <Link
                  component={RouterLink}
                  to={`${classLabels[fleet.is_of__class].path}/${fleet.id}`}
                >
                  <SlugText slug={fleet.slug} />
                </Link>
              ) : (
                '—'
              )}
              {fleetAction}
            </Stack>
          </Field>
          <Field label="Cloudlink">
            <Chip
              size="small"
              variant="outlined"
              color={device.is_connected_to_vpn ? 'success' : 'default'}
              label={device.is_connected_to_vpn ? 'Connected' : 'Disconnected'}
            />
          </Field>
          <Field label="Heartbeat">
            <Chip
              size="small"
              variant="outlined"
              color={heartbeatColors[device.api_heartbeat_state]}
              label={heartbeatLabels[device.api_heartbeat_state]}
            />
          </Field>
          {device.is_online ? (
            <Field label="Connected since">
              <ConnectedSince iso={device.last_connectivity_event} />
            </Field>
          ) : (
            <Field label="Last connected">
              <When iso={device.last_connectivity_event} fallback="Never" />
            </Field>
          )}
          <Field label="UUID">
            <CopyableText value={device.uuid} label="UUID" />
          </Field>
          <Field label="Device type">{device.is_of__device_type[0]?.name ?? '—'}</Field>
          <Field label="Update status">{updateStatusText(device)}</Field>
          <Field label="Host OS version">
            <HostOsVersion device={device} />
          </Field>
          <Field label="OS variant">{device.os_variant ?? '—'}</Field>
          <Field label="Supervisor version">
            <SupervisorVersion device={device} />
          </Field>
          <Field label="Current release">
            <ReleaseLink fleet={fleet} release={device.is_running__release[0]} />
          </Field>
          <Field label="Target release">
            <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
              {pinned ? (
                <Tooltip title="Pinned to this release">
                  <PushPinIcon fontSize="inherit" color="action" aria-label="Pinned" />
                </Tooltip>
              ) : null}
              <ReleaseLink fleet={fleet} release={target} />
            </Stack>
            <Typography variant="caption" color="text.secondary">
              {pinned ? 'Pinned' : 'Default (tracks the fleet)'}
            </Typography>
          </Field>
          <Field label="Support access">
            {supportAccessText(device.is_accessible_by_support_until__date)}
          </Field>
          <Field label="Active">{device.is_active ? 'Yes' : 'No'}</Field>
          <Field label="Local mode">
            {isLocalMode(device.device_config_variable) ? 'On' : 'Off'}
          </Field>
          {device.is_web_accessible ? (
            <Field label="Public device URL">
              {publicUrl ? (
                <Link href={publicUrl} target="_blank" rel="noopener noreferrer">
                  {publicUrl}
                </Link>
              ) : (
                'Enabled'
              )}
            </Field>
          ) : null}
          <Field label="Local IP address">
            <Lines values={addressList(device.ip_address)} />
          </Field>
          <Field label="Public IP address">
            <Lines values={addressList(device.public_address)} />
          </Field>
          <Field label="MAC address">
            <Lines values={addressList(device.mac_address)} />
          </Field>
          <Field label="Location">{locationText(device)}</Field>
          <Field label="Tags">
            {device.device_tag.length === 0 ? 'No tags' : <TagChips tags={device.device_tag} />}
          </Field>
        </Box>
      </CardContent>
    </Card>
  );
};
