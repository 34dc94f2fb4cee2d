import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useId, useState } from 'react';
import type { DeviceDetail, DeviceListRow } from '../../device/device-rows.js';
import { LoadState } from '../../ui/LoadState.js';
import { MarkdownText } from '../../ui/MarkdownText.js';
import { useReleaseNotes } from './api-host-os.js';
import {
  osUpdateProgress,
  pendingOsUpdate,
  pendingSupervisorUpdate,
  supervisorUpdateFailure,
} from './host-os-status.js';
import { OsLineChips } from './OsLineChip.js';

// The release notes of a host OS release (the catalogue's `note`), read when the dialog opens.
const OsChangelogDialog = ({ releaseId, onClose }: { releaseId: number; onClose: () => void }) => {
  const notes = useReleaseNotes(releaseId);
  const titleId = useId();
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="md" aria-labelledby={titleId}>
      <DialogTitle id={titleId}>balenaOS {notes.data?.raw_version ?? ''} changelog</DialogTitle>
      <DialogContent dividers>
        <LoadState queries={[notes]} what="changelog" />
        {notes.data?.known_issue_list ? (
          <Alert severity="warning" sx={{ mb: 2 }}>
            Known issues: {notes.data.known_issue_list}
          </Alert>
        ) : null}
        {notes.data ? (
          notes.data.note ? (
            <MarkdownText source={notes.data.note} />
          ) : (
            <Typography color="text.secondary">This release has no release notes.</Typography>
          )
        ) : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
};

// The device summary's host OS version: its OS line badges, the changelog of the release it
// should run, and the update it is running.
export const HostOsVersion = ({ device }: { device: DeviceDetail }) => {
  const [reading, setReading] = useState(false);
  const target = device.should_be_operated_by__release[0];
  const pending = pendingOsUpdate(device);
  const progress = pending ? osUpdateProgress(pending, device) : null;
  return (
    <Box>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', rowGap: 0.5 }}>
        <span>{device.os_version ?? '—'}</span>
        {device.os_version && !pending ? (
          <OsLineChips version={device.os_version} phase={target?.phase ?? null} />
        ) : null}
      </Box>
      {progress ? (
        <Box role="status">
          <Typography variant="caption" color={progress.failed ? 'error.main' : 'info.main'}>
            {progress.text}
          </Typography>
          {!progress.failed && device.provisioning_progress !== null ? (
            <LinearProgress
              variant="determinate"
              value={Math.min(100, Math.max(0, device.provisioning_progress))}
              aria-label="OS update progress"
              sx={{ maxWidth: 160 }}
            />
          ) : null}
        </Box>
      ) : null}
      {target ? (
        <Link component="button" variant="caption" onClick={() => setReading(true)}>
          Changelog
        </Link>
      ) : null}
      {reading && target ? (
        <OsChangelogDialog releaseId={target.id} onClose={() => setReading(false)} />
      ) : null}
    </Box>
  );
};

// The supervisor version, and the supervisor update the device has not finished.
export const SupervisorVersion = ({ device }: { device: DeviceDetail }) => {
  const pending = pendingSupervisorUpdate(device);
  const failure = pending ? supervisorUpdateFailure(pending, device.provisioning_state) : null;
  return (
    <Box>
      <span>{device.supervisor_version ?? '—'}</span>
      {pending ? (
        <Typography
          variant="caption"
          color={failure === null ? 'info.main' : 'error.main'}
          component="div"
          role="status"
        >
          {failure ?? `Updating supervisor to ${pending.raw_version}`}
        </Typography>
      ) : null}
    </Box>
  );
};

// The devices table's OS cell: the version, and the OS update the device is running.
export const OsVersionCell = ({ device }: { device: DeviceListRow }) => {
  const pending = pendingOsUpdate(device);
  const progress = pending ? osUpdateProgress(pending, device) : null;
  return (
    <>
      {device.os_version ?? '—'}
      {progress ? (
        <Typography
          variant="caption"
          color={progress.failed ? 'error.main' : 'info.main'}
          component="div"
        >
          {progress.text}
        </Typography>
      ) : null}
    </>
  );
};
