import {
  checksFileName,
  diagnosticsFileName,
  minimumChecksOsVersion,
} from '@flotilla/shared/devices/device-panel-constants';
import { devicePanelPermissions } from '@flotilla/shared/devices/device-action-permissions';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { useState } from 'react';
import { downloadText } from '../../ui/download.js';
import type { DeviceDetail } from '../../device/device-rows.js';
import { RequireFleetPermission } from '../../fleet/RequireFleetPermission.js';
import { DeviceSection } from '../../device/DeviceSection.js';
import { ChecksTable } from './ChecksTable.js';
import { osTooOldForChecks } from './diagnostic-runs.js';
import { RunPanel } from './RunPanel.js';
import { SupervisorState } from './SupervisorState.js';

type Section = 'checks' | 'diagnose' | 'supervisor';

const Diagnostics = ({ device }: { device: DeviceDetail }) => {
  const [section, setSection] = useState<Section>('checks');
  // Runs need the device online with its cloudlink.
  const blocked =
    device.api_heartbeat_state === 'offline' || !device.is_connected_to_vpn
      ? 'The device must be online and connected to the cloudlink'
      : null;
  return (
    <Card>
      <CardContent>
        {osTooOldForChecks(device.os_version) ? (
          <Alert severity="warning" sx={{ mb: 2 }}>
            Health checks and diagnostics need balenaOS {minimumChecksOsVersion} or later; this
            device runs {device.os_version}.
          </Alert>
        ) : null}
        <Tabs
          value={section}
          onChange={(_event, value: Section) => setSection(value)}
          aria-label="Diagnostics sections"
          sx={{ mb: 2 }}
        >
          <Tab value="checks" label="Health checks" />
          <Tab value="diagnose" label="Diagnostics report" />
          <Tab value="supervisor" label="Supervisor state" />
        </Tabs>
        {section === 'supervisor' ? (
          <SupervisorState uuid={device.uuid} supervisorVersion={device.supervisor_version} />
        ) : section === 'checks' ? (
          <RunPanel
            key="checks"
            uuid={device.uuid}
            action="checks"
            runLabel="Run checks"
            blocked={blocked}
            download={(run) =>
              downloadText(
                `${JSON.stringify(run, null, 2)}\n`,
                checksFileName(device.uuid, new Date()),
                'application/json',
              )
            }
          >
            {(run) => <ChecksTable checks={run.checks ?? []} />}
          </RunPanel>
        ) : (
          <RunPanel
            key="diagnose"
            uuid={device.uuid}
            action="diagnose"
            runLabel="Run diagnostics"
            blocked={blocked}
            download={(run) =>
              downloadText(run.stdout ?? '', diagnosticsFileName(device.uuid, new Date()))
            }
          >
            {(run) => (
              <Box
                component="pre"
                aria-label="Diagnostics report"
                sx={{
                  m: 0,
                  p: 2,
                  maxHeight: 480,
                  overflow: 'auto',
                  bgcolor: 'action.hover',
                  borderRadius: 1,
                  fontSize: 13,
                }}
              >
                {run.stdout}
              </Box>
            )}
          </RunPanel>
        )}
      </CardContent>
    </Card>
  );
};

// /devices/:uuid/diagnostics (needs resin.device.access_diagnostics; anyone else goes home):
// health checks and the diagnostics report, run on the device over its cloudlink.
export const DiagnosticsPage = () => (
  <DeviceSection title="Diagnostics">
    {(device) => (
      <RequireFleetPermission
        fleetId={device.belongs_to__application[0]?.id ?? 0}
        needs={devicePanelPermissions.diagnostics}
      >
        <Diagnostics device={device} />
      </RequireFleetPermission>
    )}
  </DeviceSection>
);
