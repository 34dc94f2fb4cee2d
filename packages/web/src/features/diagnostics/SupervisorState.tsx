import { targetStateApiVersion } from '@flotilla/shared/devices/device-panel-constants';
import { errorText, FlotillaApiError } from '@flotilla/sdk/errors';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useCurrentState, useTargetState } from './api.js';

// The supervisor proxy's answer when the device is not reachable: not an error of the page, the
// device is just offline.
const offlineText = 'No online device(s) found';

const StatePane = ({
  title,
  label,
  errorPrefix,
  state,
  pending,
  error,
}: {
  title: string;
  // The accessible name of the state's text.
  label: string;
  errorPrefix: string;
  state: unknown;
  pending: boolean;
  error: unknown;
}) => {
  const offline = error instanceof FlotillaApiError && error.message.startsWith(offlineText);
  return (
    <Box sx={{ minWidth: 0 }}>
      <Typography variant="h3" component="h3" gutterBottom>
        {title}
      </Typography>
      {pending ? <Typography color="text.secondary">Loading…</Typography> : null}
      {offline ? (
        <Alert severity="info">The device is offline: its current state cannot be read</Alert>
      ) : error ? (
        <Alert severity="error">
          {errorPrefix}: {errorText(error) ?? 'could not read the state'}
        </Alert>
      ) : null}
      {state === undefined ? null : (
        <Box
          component="pre"
          aria-label={label}
          sx={{
            m: 0,
            p: 2,
            maxHeight: 480,
            overflow: 'auto',
            bgcolor: 'action.hover',
            borderRadius: 1,
            fontSize: 12,
          }}
        >
          {JSON.stringify(state, null, 2)}
        </Box>
      )}
    </Box>
  );
};

// The device's current state (from its supervisor, over the cloudlink) next to the target state
// the server computes for it, in the version its supervisor reads.
export const SupervisorState = ({
  uuid,
  supervisorVersion,
}: {
  uuid: string;
  supervisorVersion: string | null;
}) => {
  const current = useCurrentState(uuid);
  const version = targetStateApiVersion(supervisorVersion);
  const target = useTargetState(uuid, version);
  return (
    <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}>
      <StatePane
        title="Current state"
        label="Current state"
        errorPrefix="Supervisor state error"
        state={current.data}
        pending={current.isPending}
        error={current.error}
      />
      <StatePane
        title={`Target state (${version})`}
        label="Target state"
        errorPrefix="Supervisor target state error"
        state={target.data}
        pending={target.isPending}
        error={target.error}
      />
    </Box>
  );
};
