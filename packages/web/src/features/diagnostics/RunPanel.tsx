import { errorText } from '@flotilla/sdk/errors';
import type { DiagnosticAction, DiagnosticRun } from '@flotilla/shared/diagnostics/diagnostics';
import DownloadIcon from '@mui/icons-material/Download';
import PlayArrowIcon from '@mui/icons-material/PlayArrow';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useLatestRun, useStartRun } from './api.js';

const statusLabel: Record<DiagnosticRun['status'] | 'idle', string> = {
  idle: 'Not run yet',
  configuring: 'Starting',
  in_progress: 'Running',
  done: 'Done',
  error: 'Failed',
};

// A failed read of the health checks says so, then what the actions service answered.
const readFailureText = (action: DiagnosticAction, error: unknown): string => {
  const text = errorText(error);
  if (action === 'checks')
    return text === null ? 'Failed query check' : `Failed query check: ${text}`;
  return text ?? 'Could not read the last run';
};

// One kind of run (health checks or diagnostics): run it, follow it while in progress, show and
// download its last result.
export const RunPanel = ({
  uuid,
  action,
  runLabel,
  blocked,
  download,
  children,
}: {
  uuid: string;
  action: DiagnosticAction;
  runLabel: string;
  // Why the run cannot start now, or null.
  blocked: string | null;
  download: (run: DiagnosticRun) => void;
  children: (run: DiagnosticRun) => ReactNode;
}) => {
  const run = useLatestRun(uuid, action);
  const start = useStartRun(uuid, action);
  const current = run.data ?? null;
  const running = current?.status === 'in_progress' || current?.status === 'configuring';
  const status = current?.status ?? 'idle';
  return (
    <Stack spacing={2}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
        <Tooltip title={blocked ?? ''}>
          <span>
            <Button
              variant="contained"
              startIcon={<PlayArrowIcon />}
              disabled={blocked !== null || running || start.isPending}
              onClick={() => start.mutate()}
            >
              {runLabel}
            </Button>
          </span>
        </Tooltip>
        <Button
          startIcon={<DownloadIcon />}
          disabled={current?.status !== 'done'}
          onClick={() => current && download(current)}
        >
          Download
        </Button>
        <Chip
          role="status"
          label={statusLabel[status]}
          color={status === 'done' ? 'success' : status === 'error' ? 'error' : 'default'}
          variant="outlined"
        />
        {current?.lastRun ? (
          <Typography variant="body2" color="text.secondary">
            Last run {new Date(current.lastRun).toLocaleString()}
          </Typography>
        ) : null}
      </Stack>
      {start.isError ? (
        <Alert severity="error">{errorText(start.error) ?? 'Could not start the run'}</Alert>
      ) : null}
      {run.isError ? <Alert severity="error">{readFailureText(action, run.error)}</Alert> : null}
      {current?.status === 'error' ? (
        <Alert severity="error">{current.error ?? 'The run failed'}</Alert>
      ) : null}
      {current?.status === 'done' ? children(current) : null}
    </Stack>
  );
};
