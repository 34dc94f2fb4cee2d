import Alert from '@mui/material/Alert';
import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CardHeader from '@mui/material/CardHeader';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import TextField from '@mui/material/TextField';
import { lazy, Suspense, useState } from 'react';
import { useHostOsAccess, useSessionToken } from './api.js';
import type { TerminalState } from './terminal-connection.js';
import {
  type TerminalAvailability,
  type TerminalOption,
  terminalOptions,
  terminalUnavailable,
} from './terminal-targets.js';

// xterm.js is loaded only when a session starts (kept out of the console's first bundle).
const TerminalView = lazy(() =>
  import('./TerminalView.js').then((module) => ({ default: module.TerminalView })),
);

type Session = {
  id: number;
  option: TerminalOption;
  // Sessions of one target are numbered, so their tabs tell them apart: "Host OS 2".
  name: string;
  ordinal: number;
  state: TerminalState;
  message?: string;
  unseen: boolean;
};

const stateLabels: Record<TerminalState, string> = {
  connecting: 'connecting',
  spawning: 'spawning shell',
  connected: 'connected',
  reconnecting: 'reconnecting',
  failed: 'failed',
  exited: 'ended',
};

// The install a session's service runs now (null for the host OS or a service not running).
const installOf = (services: TerminalAvailability['services'], option: TerminalOption) =>
  option.target.kind === 'service'
    ? (services.find((service) => service.name === option.label)?.installId ?? null)
    : null;

// The device page's terminal: a target, session tabs with an
// unseen-activity marker, expand and minimize. Remounted per device (its key), which clears the
// sessions when the device changes.
export const TerminalPanel = (props: TerminalAvailability & { uuid: string }) => {
  const unavailable = terminalUnavailable(props);
  const hostAccess = useHostOsAccess(props.uuid, props.hostDenied === null && unavailable === null);
  const options = terminalOptions(props, hostAccess);
  const [choice, setChoice] = useState('host');
  const token = useSessionToken();
  const [sessions, setSessions] = useState<Session[]>([]);
  const [active, setActive] = useState<number | null>(null);
  const [expanded, setExpanded] = useState(false);
  const [minimized, setMinimized] = useState(false);
  const [nextId, setNextId] = useState(1);
  // No terminal at all for a user holding neither permission.
  if (props.hostDenied !== null && props.serviceDenied !== null) return null;

  const selected = options.find((option) => option.key === choice) ?? options[0];
  const update = (id: number, change: Partial<Session>): void =>
    setSessions((all) =>
      all.map((session) => (session.id === id ? { ...session, ...change } : session)),
    );
  const start = (): void => {
    if (!selected || selected.disabled !== null) return;
    const id = nextId;
    setNextId(id + 1);
    const sameTarget = sessions.filter((session) => session.option.key === selected.key);
    const ordinal = Math.max(0, ...sameTarget.map((session) => session.ordinal)) + 1;
    const name = ordinal === 1 ? selected.label : `${selected.label} ${ordinal}`;
    setSessions((all) => [
      ...all,
      { id, option: selected, name, ordinal, state: 'connecting', unseen: false },
    ]);
    setActive(id);
    setMinimized(false);
  };
  const close = (id: number): void => {
    setSessions((all) => all.filter((session) => session.id !== id));
    if (active === id) setActive(sessions.find((session) => session.id !== id)?.id ?? null);
  };
  const height = expanded ? 560 : 320;

  return (
    <Card variant="outlined" aria-labelledby="terminal-title">
      <CardHeader
        title="Terminal"
        slotProps={{ title: { id: 'terminal-title', variant: 'h6' } }}
        action={
          <Stack direction="row" spacing={1}>
            <Button size="small" onClick={() => setExpanded((value) => !value)}>
              {expanded ? 'Shrink' : 'Expand'}
            </Button>
            <Button size="small" onClick={() => setMinimized((value) => !value)}>
              {minimized ? 'Show' : 'Minimize'}
            </Button>
          </Stack>
        }
      />
      <CardContent sx={{ display: minimized ? 'none' : 'block' }}>
        {unavailable ? (
          <Alert severity="info">{unavailable}</Alert>
        ) : (
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1 }}>
            <TextField
              select
              size="small"
              label="Target"
              value={selected?.key ?? ''}
              onChange={(event) => setChoice(event.target.value)}
              sx={{ minWidth: 200 }}
            >
              {options.map((option) => (
                <MenuItem key={option.key} value={option.key} disabled={option.disabled !== null}>
                  {option.disabled ?? option.label}
                </MenuItem>
              ))}
            </TextField>
            <Button
              variant="contained"
              onClick={start}
              disabled={!selected || selected.disabled !== null}
            >
              Start session
            </Button>
          </Stack>
        )}
        {sessions.length > 0 ? (
          <>
            <Tabs
              value={active ?? false}
              onChange={(_, id: number) => {
                setActive(id);
                update(id, { unseen: false });
              }}
              variant="scrollable"
            >
              {sessions.map((session) => (
                <Tab
                  key={session.id}
                  value={session.id}
                  label={
                    <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                      <Badge
                        color="primary"
                        variant="dot"
                        invisible={!session.unseen}
                        aria-label={session.unseen ? 'new output' : undefined}
                      >
                        <span>{session.name}</span>
                      </Badge>
                      <span>({stateLabels[session.state]})</span>
                      <IconButton
                        size="small"
                        component="span"
                        aria-label={`Close ${session.name} session`}
                        onClick={(event) => {
                          event.stopPropagation();
                          close(session.id);
                        }}
                      >
                        ×
                      </IconButton>
                    </Stack>
                  }
                />
              ))}
            </Tabs>
            {sessions.map((session) =>
              session.state === 'failed' && session.id === active && session.message ? (
                <Alert key={`alert-${session.id}`} severity="error" sx={{ my: 1 }}>
                  {session.message}
                </Alert>
              ) : null,
            )}
            <Suspense
              fallback={
                <Box sx={{ p: 2 }}>
                  <CircularProgress size={20} aria-label="Loading the terminal" />
                </Box>
              }
            >
              {sessions.map((session) => (
                <TerminalView
                  key={session.id}
                  uuid={props.uuid}
                  target={session.option.target}
                  installId={installOf(props.services, session.option)}
                  visible={session.id === active && !minimized}
                  height={height}
                  token={token}
                  onState={(state, message) => update(session.id, { state, message })}
                  onActivity={() => {
                    if (session.id !== active && !session.unseen)
                      update(session.id, { unseen: true });
                  }}
                />
              ))}
            </Suspense>
          </>
        ) : null}
      </CardContent>
    </Card>
  );
};
