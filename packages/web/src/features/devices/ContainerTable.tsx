import type { ContainerActionId } from '@flotilla/shared/devices/device-action-permissions';
import PlayArrowIcon from '@mui/icons-material/PlayArrow';
import RestartAltIcon from '@mui/icons-material/RestartAlt';
import StopIcon from '@mui/icons-material/Stop';
import SubjectIcon from '@mui/icons-material/Subject';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { type ReactElement, useState } from 'react';
import { errorText } from '@flotilla/sdk/errors';
import { useToasts } from '../../ui/toasts.js';
import { type ActionDevice, containerActionBlock, type Denied } from './device-action-rules.js';
import type { ActionTarget } from './device-actions.js';
import { useContainerAction } from './api-device-actions.js';
import {
  containerStatusColor,
  containerStatusHint,
  containerStatusText,
  releaseLabel,
} from '../../device/device-format.js';
import type { ImageInstall } from '../../device/device-rows.js';
import { QueueServiceDialog } from './QueueServiceDialog.js';

const buttons: { action: ContainerActionId; label: string; icon: ReactElement }[] = [
  { action: 'start', label: 'Start', icon: <PlayArrowIcon fontSize="small" /> },
  { action: 'stop', label: 'Stop', icon: <StopIcon fontSize="small" /> },
  { action: 'restart', label: 'Restart', icon: <RestartAltIcon fontSize="small" /> },
];

const serviceName = (install: ImageInstall): string =>
  install.installs__image[0]?.is_a_build_of__service[0]?.service_name ?? 'Unknown service';

const doneText: Record<ContainerActionId, string> = {
  start: 'Starting',
  stop: 'Stopping',
  restart: 'Restarting',
};

// The device's services (one row per image install): status, release, download progress and
// start / stop / restart.
export const ContainerTable = ({
  installs,
  device,
  target,
  denied,
  onShowLogs,
}: {
  installs: readonly ImageInstall[];
  device: ActionDevice;
  target: ActionTarget;
  denied: Denied;
  // Opens the logs panel filtered to this service.
  onShowLogs: (service: string) => void;
}) => {
  const { show } = useToasts();
  // An offline device: the action is queued for when it comes back, after a confirmation.
  const offline = !device.isConnected;
  const [queueing, setQueueing] = useState<{
    action: ContainerActionId;
    install: ImageInstall;
  } | null>(null);
  const control = useContainerAction(target, (action, install, outcome) => {
    setQueueing(null);
    const what = `${action} ${serviceName(install)}`;
    show(
      'success',
      outcome === 'queued' ? `Queued: ${what}` : `${doneText[action]} ${serviceName(install)}`,
    );
  });
  const labelOf = (action: ContainerActionId) =>
    buttons.find((button) => button.action === action)?.label ?? action;
  const rows = installs
    .filter((install) => install.status !== 'Deleted')
    .toSorted((a, b) => serviceName(a).localeCompare(serviceName(b)) || a.id - b.id);
  return (
    <Card component="section" aria-labelledby="containers-title">
      <CardContent>
        <Typography id="containers-title" variant="h3" component="h2" gutterBottom>
          Services
        </Typography>
        {rows.length === 0 ? (
          <Typography color="text.secondary">No services installed</Typography>
        ) : (
          <TableContainer>
            <Table size="small" aria-labelledby="containers-title">
              <TableHead>
                <TableRow>
                  <TableCell>Service</TableCell>
                  <TableCell>Status</TableCell>
                  <TableCell>Release</TableCell>
                  <TableCell align="right">Actions</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {rows.map((install) => {
                  const name = serviceName(install);
                  const downloading =
                    install.download_progress !== null && install.download_progress < 100;
                  return (
                    <TableRow key={install.id}>
                      <TableCell sx={{ fontWeight: 500 }}>{name}</TableCell>
                      <TableCell>
                        <Tooltip title={containerStatusHint(install.status) ?? ''}>
                          <Chip
                            size="small"
                            variant="outlined"
                            color={containerStatusColor(install.status)}
                            label={containerStatusText(install.status, install.download_progress)}
                          />
                        </Tooltip>
                        {downloading ? (
                          <LinearProgress
                            variant="determinate"
                            value={install.download_progress ?? 0}
                            aria-label={`${name} download progress`}
                            sx={{ mt: 0.5, maxWidth: 140 }}
                          />
                        ) : null}
                      </TableCell>
                      <TableCell sx={{ fontFamily: 'monospace' }}>
                        {releaseLabel(install.is_provided_by__release[0])}
                      </TableCell>
                      <TableCell align="right">
                        <Stack direction="row" spacing={0.5} sx={{ justifyContent: 'flex-end' }}>
                          {buttons.map(({ action, label, icon }) => {
                            const block = containerActionBlock(
                              action,
                              install.status,
                              control.isPending,
                              device,
                              denied,
                              true,
                            );
                            return (
                              <Tooltip
                                key={action}
                                title={
                                  block ??
                                  `${label} ${name}${offline ? ' when the device comes online' : ''}`
                                }
                              >
                                {/* A span: disabled buttons fire no events for the tooltip. */}
                                <span tabIndex={block === null ? undefined : 0}>
                                  <IconButton
                                    size="small"
                                    aria-label={`${label} ${name}`}
                                    disabled={block !== null}
                                    onClick={() =>
                                      offline
                                        ? setQueueing({ action, install })
                                        : control.mutate({ action, install })
                                    }
                                  >
                                    {icon}
                                  </IconButton>
                                </span>
                              </Tooltip>
                            );
                          })}
                          <Tooltip title={`Show the logs of ${name}`}>
                            <IconButton
                              size="small"
                              aria-label={`Show logs of ${name}`}
                              onClick={() => onShowLogs(name)}
                            >
                              <SubjectIcon fontSize="small" />
                            </IconButton>
                          </Tooltip>
                        </Stack>
                      </TableCell>
                    </TableRow>
                  );
                })}
              </TableBody>
            </Table>
          </TableContainer>
        )}
      </CardContent>
      <QueueServiceDialog
        key={queueing === null ? 'closed' : `${queueing.action}-${queueing.install.id}`}
        title={
          queueing === null ? null : `${labelOf(queueing.action)} ${serviceName(queueing.install)}`
        }
        pending={control.isPending}
        error={queueing !== null && control.error !== null ? errorText(control.error) : null}
        onConfirm={(hours) =>
          queueing !== null && control.mutate({ ...queueing, queueHours: hours })
        }
        onClose={() => {
          setQueueing(null);
          control.reset();
        }}
      />
    </Card>
  );
};
