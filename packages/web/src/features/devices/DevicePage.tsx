import {
  type DeviceActionId,
  deviceActionPermissions,
  devicePanelPermissions,
} from '@flotilla/shared/devices/device-action-permissions';
import { errorText } from '@flotilla/sdk/errors';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Navigate, useParams } from 'react-router';
import { useClient } from '../../api/client.js';
import { useBreadcrumbs } from '../../ui/breadcrumbs.js';
import { fleetListPolling } from '../../ui/polling.js';
import { usePageTitle } from '../../ui/usePageTitle.js';
import { LogsPanel } from '../device-logs/LogsPanel.js';
import { TerminalPanel } from '../terminal/TerminalPanel.js';
import { terminalServices } from '../terminal/terminal-targets.js';
import { useFleetRole } from '../../fleet/api-fleet-role.js';
import { classLabels } from '../../fleet/class-names.js';
import { ContainerTable } from './ContainerTable.js';
import { actionDeviceOf } from './device-action-rules.js';
import type { ActionTarget } from './device-actions.js';
import { fetchDevice } from '../../device/api.js';
import { DeviceActionsMenu } from './DeviceActionsMenu.js';
import type { ImageInstall } from '../../device/device-rows.js';
import { DeviceMetrics } from './DeviceMetrics.js';
import { DeviceName } from './DeviceName.js';
import { DeviceNotes } from './DeviceNotes.js';
import { DeviceSummaryCard } from './DeviceSummaryCard.js';
import { DeviceTabs } from '../../device/DeviceTabs.js';
import { fieldDeviceOfDetail } from './field-action-device.js';
import { LockNotice } from './LockNotice.js';
import { ManageTagsDialog, type TaggedDevice } from './ManageTagsDialog.js';
import { DisabledReason } from '../../ui/DisabledReason.js';
import { useDeviceActions } from './useDeviceActions.js';
import { deviceKeys } from '../../device/query-keys.js';

const clearLogs = devicePanelPermissions['clear-logs'];
const terminalHost = devicePanelPermissions['terminal-host'];
const terminalService = devicePanelPermissions['terminal-service'];

// Service id → name of the device's installed services (the log lines carry the id).
const serviceNames = (installs: readonly ImageInstall[]): ReadonlyMap<number, string> =>
  new Map(
    installs.flatMap((install) =>
      install.installs__image.flatMap((image) =>
        image.is_a_build_of__service.map((service) => [service.id, service.service_name] as const),
      ),
    ),
  );

// /devices/:uuid: summary, notes, metrics and services of one device, refreshed like the lists
// so that a reboot is seen going offline and coming back.
export const DevicePage = () => {
  const { uuid = '' } = useParams();
  const client = useClient();
  const device = useQuery({
    queryKey: deviceKeys.detail(uuid),
    queryFn: () => fetchDevice(client, uuid),
    ...fleetListPolling(),
  });
  const detail = device.data ?? null;
  const fleet = detail?.belongs_to__application[0];
  const access = useFleetRole(fleet?.id ?? 0);
  const actions = useDeviceActions();
  const [tagging, setTagging] = useState<TaggedDevice[] | null>(null);
  const [logFilter, setLogFilter] = useState('');
  const services = useMemo(
    () => serviceNames(detail?.image_install ?? []),
    [detail?.image_install],
  );
  usePageTitle(detail?.device_name ?? 'Device');
  const organization = fleet?.organization[0];
  const fleetPath = fleet ? `${classLabels[fleet.is_of__class].path}/${fleet.id}` : '/fleets';
  useBreadcrumbs(
    detail && fleet && organization
      ? [
          { label: organization.name, to: `/orgs/${organization.id}/fleets` },
          { label: fleet.app_name, to: fleetPath },
          // The devices crumb keeps the table's search and filter (the URL it was left with).
          { label: 'Devices', to: `${fleetPath}/devices` },
          { label: detail.device_name, to: `/devices/${detail.uuid}` },
        ]
      : [],
  );

  if (device.isPending) {
    return (
      <Box aria-busy="true" aria-label="Loading">
        <Skeleton variant="text" width={280} height={48} />
        <Skeleton variant="rounded" height={240} sx={{ mt: 2 }} />
      </Box>
    );
  }
  if (device.isError) {
    return (
      <Alert
        severity="error"
        action={
          <Button color="inherit" size="small" onClick={() => void device.refetch()}>
            Retry
          </Button>
        }
      >
        {errorText(device.error) ?? 'Could not load the device'}
      </Alert>
    );
  }
  // Seed 001 section 2: a device not found goes to /, a frozen one to its fleet.
  if (!detail || !fleet) return <Navigate to="/" replace />;
  if (detail.is_frozen) return <Navigate to={fleetPath} replace />;

  const state = actionDeviceOf(detail);
  const target: ActionTarget = {
    id: detail.id,
    uuid: detail.uuid,
    name: detail.device_name,
    applicationId: fleet.id,
  };
  const permissionDenied = (action: DeviceActionId): string | null =>
    access.denied(deviceActionPermissions[action].resource, deviceActionPermissions[action].action);
  const offline = detail.api_heartbeat_state === 'offline';
  const tagsDenied = access.denied('device_tag', 'create');
  return (
    <Stack spacing={2}>
      <Stack
        direction="row"
        spacing={2}
        sx={{ alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap', rowGap: 1 }}
      >
        <DeviceName
          deviceId={detail.id}
          name={detail.device_name}
          denied={permissionDenied('rename')}
        />
        <Stack direction="row" spacing={1}>
          <DisabledReason reason={tagsDenied}>
            <Button
              variant="outlined"
              disabled={tagsDenied !== null}
              onClick={() =>
                setTagging([
                  { id: detail.id, name: detail.device_name, device_tag: detail.device_tag },
                ])
              }
            >
              Manage tags
            </Button>
          </DisabledReason>
          <DeviceActionsMenu
            device={fieldDeviceOfDetail(detail, target)}
            denied={access.denied}
            actions={actions}
            fleetPath={fleetPath}
          />
        </Stack>
        <ManageTagsDialog devices={tagging} onClose={() => setTagging(null)} />
      </Stack>
      <DeviceTabs uuid={detail.uuid} />
      <LockNotice actions={actions} />
      {offline || !detail.is_connected_to_vpn ? (
        <Alert severity="info">
          {offline ? 'This device is offline' : 'This device is not connected to the cloudlink'}:
          actions that reach the device are unavailable until it reconnects.
        </Alert>
      ) : null}
      {detail.is_undervolted ? (
        <Alert severity="warning">
          This device is undervolted: its power supply does not deliver enough voltage, which can
          corrupt data or make it unstable.
        </Alert>
      ) : null}
      <DeviceSummaryCard device={detail} />
      <Box
        sx={{
          display: 'grid',
          gap: 2,
          gridTemplateColumns: { xs: '1fr', lg: 'minmax(280px, 1fr) 2fr' },
          alignItems: 'start',
        }}
      >
        <DeviceMetrics device={detail} />
        <DeviceNotes
          key={detail.id}
          deviceId={detail.id}
          uuid={detail.uuid}
          note={detail.note}
          denied={permissionDenied('notes')}
        />
      </Box>
      <ContainerTable
        installs={detail.image_install}
        device={state}
        target={target}
        denied={access.denied}
        onShowLogs={(service) => {
          setLogFilter(service);
          document.getElementById('logs-title')?.scrollIntoView({ block: 'start' });
        }}
      />
      <TerminalPanel
        key={`terminal-${detail.uuid}`}
        uuid={detail.uuid}
        connected={!offline && detail.is_connected_to_vpn}
        localMode={state.isInLocalMode}
        hostDenied={access.denied(terminalHost.resource, terminalHost.action)}
        serviceDenied={access.denied(terminalService.resource, terminalService.action)}
        services={terminalServices(detail.image_install)}
      />
      <LogsPanel
        key={detail.uuid}
        uuid={detail.uuid}
        fleetName={fleet.app_name}
        deviceName={detail.device_name}
        services={services}
        filter={logFilter}
        onFilterChange={setLogFilter}
        clearDenied={access.denied(clearLogs.resource, clearLogs.action)}
        localMode={state.isInLocalMode}
      />
    </Stack>
  );
};
