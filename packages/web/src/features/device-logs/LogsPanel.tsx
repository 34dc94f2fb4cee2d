import { errorText } from '@flotilla/sdk/errors';
import { logFilterThrottleMs, logsFileName } from '@flotilla/shared/devices/device-panel-constants';
import CloseFullscreenIcon from '@mui/icons-material/CloseFullscreen';
import DeleteSweepIcon from '@mui/icons-material/DeleteSweep';
import DownloadIcon from '@mui/icons-material/Download';
import OpenInFullIcon from '@mui/icons-material/OpenInFull';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useMemo, useState } from 'react';
import { downloadText } from '../../ui/download.js';
import { useToasts } from '../../ui/toasts.js';
import { ConfirmDialog } from '../../ui/ConfirmDialog.js';
import { lineFilter, logsText } from './log-lines.js';
import { setLogPreferences, useLogPreferences } from './log-preferences.js';
import type { LogStreamStatus } from './log-stream.js';
import { LogLines } from './LogLines.js';
import { useClearLogs, useDeviceLogs } from './api.js';
import { useThrottledValue } from './useThrottledValue.js';

const statusText: Record<LogStreamStatus, string | null> = {
  loading: 'Loading logs…',
  streaming: null,
  reconnecting: 'Connection lost: reconnecting…',
  unauthorized: 'You are not allowed to read these logs',
};

export type LogsPanelProps = {
  uuid: string;
  fleetName: string;
  deviceName: string;
  // Service id → name, for the lines' labels and the filter.
  services: ReadonlyMap<number, string>;
  // The service filter's text (owned by the page, so that "show logs" can set it).
  filter: string;
  onFilterChange: (filter: string) => void;
  // Why the user may not clear the logs (resin.device_log.delete), or null.
  clearDenied: string | null;
  localMode: boolean;
};

// The device's logs: history then live lines, filter by service,
// UTC and timestamps toggles kept in this browser, download, clear, expand.
export const LogsPanel = (props: LogsPanelProps) => (
  <Card component="section" aria-labelledby="logs-title">
    <CardContent>
      <Typography id="logs-title" variant="h3" component="h2" gutterBottom>
        Logs
      </Typography>
      {props.localMode ? (
        <Alert severity="info">Logs are not available in local mode</Alert>
      ) : (
        <StreamedLogs {...props} />
      )}
    </CardContent>
  </Card>
);

const StreamedLogs = ({
  uuid,
  fleetName,
  deviceName,
  services,
  filter,
  onFilterChange,
  clearDenied,
}: LogsPanelProps) => {
  const { show } = useToasts();
  const logs = useDeviceLogs(uuid);
  const preferences = useLogPreferences();
  const [expanded, setExpanded] = useState(false);
  const [confirmingClear, setConfirmingClear] = useState(false);
  const appliedFilter = useThrottledValue(filter, logFilterThrottleMs);
  const shown = useMemo(
    () => logs.lines.filter(lineFilter(appliedFilter, services)),
    [logs.lines, appliedFilter, services],
  );
  const clear = useClearLogs(uuid, () => {
    logs.clear();
    setConfirmingClear(false);
    show('success', 'Logs cleared');
  });
  const status = statusText[logs.status];

  return (
    <Stack spacing={1}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
        <TextField
          size="small"
          label="Filter by service"
          value={filter}
          onChange={(event) => onFilterChange(event.target.value)}
          helperText={`${[...services.values(), 'System'].join(', ')}`}
        />
        <FormControlLabel
          control={
            <Switch
              checked={preferences.utc}
              onChange={(event) => setLogPreferences({ utc: event.target.checked })}
            />
          }
          label="UTC"
        />
        <FormControlLabel
          control={
            <Switch
              checked={preferences.hideTimestamps}
              onChange={(event) => setLogPreferences({ hideTimestamps: event.target.checked })}
            />
          }
          label="Hide timestamps"
        />
        <Button
          startIcon={<DownloadIcon />}
          disabled={shown.length === 0}
          onClick={() =>
            downloadText(
              logsText(shown, services, preferences),
              logsFileName(fleetName, deviceName, new Date()),
            )
          }
        >
          Download
        </Button>
        <Tooltip title={clearDenied ?? 'Delete all the logs of this device'}>
          <span>
            <Button
              color="error"
              startIcon={<DeleteSweepIcon />}
              disabled={clearDenied !== null || clear.isPending}
              onClick={() => {
                clear.reset();
                setConfirmingClear(true);
              }}
            >
              Clear logs
            </Button>
          </span>
        </Tooltip>
        <Button
          startIcon={expanded ? <CloseFullscreenIcon /> : <OpenInFullIcon />}
          aria-pressed={expanded}
          onClick={() => setExpanded((value) => !value)}
        >
          {expanded ? 'Collapse' : 'Expand'}
        </Button>
      </Stack>
      <ConfirmDialog
        open={confirmingClear}
        title="Clear logs?"
        confirmLabel="Clear logs"
        destructive
        pending={clear.isPending}
        error={clear.error ? (errorText(clear.error) ?? 'Could not clear the logs') : null}
        onConfirm={() => clear.mutate()}
        onClose={() => setConfirmingClear(false)}
      >
        {`Deletes every log line stored for ${deviceName}, for everyone. This cannot be undone.`}
      </ConfirmDialog>
      {status === null ? null : (
        <Alert severity={logs.status === 'unauthorized' ? 'error' : 'info'} role="status">
          {status}
        </Alert>
      )}
      {logs.noLogsYet ? <Typography color="text.secondary">No logs yet</Typography> : null}
      <LogLines
        lines={shown}
        services={services}
        utc={preferences.utc}
        hideTimestamps={preferences.hideTimestamps}
        height={expanded ? 'calc(100vh - 120px)' : '360px'}
      />
    </Stack>
  );
};
