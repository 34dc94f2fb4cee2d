import {
  type DeviceActionId,
  deviceActionPermissions,
  devicePanelPermissions,
} from '@flotilla/shared/devices/device-action-permissions';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import { useMemo, useState } from 'react';
import { Navigate, useParams } from 'react-router';
import { SupportAccessNotice } from '../../api/session/SupportAccessNotice.js';
import { RedirectWithMessage } from '../../ui/RedirectWithMessage.js';
import { useDeviceBreadcrumbs } from '../../device/useDeviceBreadcrumbs.js';
import { streamedFleetListPolling } from '../../ui/polling.js';
import { usePageTitle } from '../../ui/usePageTitle.js';
import { LogsPanel } from '../device-logs/LogsPanel.js';
import { TerminalPanel } from '../terminal/TerminalPanel.js';
import { terminalServices } from '../terminal/terminal-targets.js';
import { useFleetRole } from '../../fleet/api-fleet-role.js';
import { classLabels } from '../../fleet/class-names.js';
import { ContainerTable } from './ContainerTable.js';
import { actionDeviceOf } from './device-action-rules.js';
import type { ActionTarget } from './device-actions.js';
import { useDeviceDetail } from '../../device/api.js';
import { DeviceAlerts } from './DeviceAlerts.js';
import { DevicePageHeader } from './DevicePageHeader.js';
import { DevicePageError, DevicePageLoading } from './DevicePageStatus.js';
import { serviceNames } from './service-names.js';
import { DeviceMetrics } from './DeviceMetrics.js';
import { DeviceNotes } from './DeviceNotes.js';
import { DeviceSummaryCard } from './DeviceSummaryCard.js';
import { MoveDeviceButton } from './MoveDeviceButton.js';
import { DeviceTabs } from '../../device/DeviceTabs.js';
import { LockNotice } from './LockNotice.js';
import { QueuedActionsCard } from './QueuedActionsCard.js';
import { useDeviceActions } from './api-device-actions.js';

const clearLogs = devicePanelPermissions['clear-logs'];
const terminalHost = devicePanelPermissions['terminal-host'];
const terminalService = devicePanelPermissions['terminal-service'];

// /devices/:uuid: summary, notes, metrics and services of one device, refreshed like the lists
// so that a reboot is seen going offline and coming back.
export const DevicePage = () => {
  const { uuid = '' } = useParams();
  const device = useDeviceDetail(uuid, streamedFleetListPolling());
  const detail = device.data ?? null;
  const fleet = detail?.belongs_to__application[0];
  const access = useFleetRole(fleet?.id ?? 0);
  const actions = useDeviceActions();
  const [logFilter, setLogFilter] = useState('');
  const installs = detail?.image_install;
  const services = useMemo(() => serviceNames(installs ?? []), [installs]);
  usePageTitle(detail?.device_name ?? 'Device');
  const fleetPath = fleet ? `${classLabels[fleet.is_of__class].path}/${fleet.id}` : '/fleets';
  useDeviceBreadcrumbs(detail);

  if (device.isPending) return <DevicePageLoading />;
  if (device.isError) {
    return <DevicePageError error={device.error} onRetry={() => void device.refetch()} />;
  }
  // A device not found goes to /; a frozen one cannot be managed, so it goes to its fleet.
  if (!detail || !fleet) {
    return <RedirectWithMessage to="/" message={`Device not found: ${uuid.slice(0, 62)}`} />;
  }
  if (detail.is_frozen) return <Navigate to={fleetPath} replace />;

  const state = actionDeviceOf(detail);
  const target: ActionTarget = {
    id: detail.id,
    uuid: detail.uuid,
    name: detail.device_name,
    fleetId: fleet.id,
  };
  const permissionDenied = (action: DeviceActionId): string | null =>
    access.denied(deviceActionPermissions[action].resource, deviceActionPermissions[action].action);
  const offline = detail.api_heartbeat_state === 'offline';
  return (
    <Stack spacing={2}>
      <DevicePageHeader
        detail={detail}
        target={target}
        access={access}
        actions={actions}
        fleetPath={fleetPath}
        renameDenied={permissionDenied('rename')}
      />
      <DeviceTabs uuid={detail.uuid} fleetId={fleet.id} />
      <SupportAccessNotice
        until={[detail.is_accessible_by_support_until__date, access.supportUntil]}
        subject="device"
        member={access.isPending || access.isMember}
      />
      <LockNotice actions={actions} />
      <QueuedActionsCard deviceId={detail.id} denied={access.denied} />
      <DeviceAlerts detail={detail} />
      <DeviceSummaryCard
        device={detail}
        fleetAction={<MoveDeviceButton detail={detail} actions={actions} />}
      />
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
